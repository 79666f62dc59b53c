/** A worker thread of the validation pool: checks the entries it is sent and answers in the same order. */
import { parentPort } from 'node:worker_threads';
import { checkAll, type CheckRequest } from './batch-item.ts';

parentPort!.on('message', (request: CheckRequest) => parentPort!.postMessage(checkAll(request)));
