/** A worker thread of the validation pool: checks the entries it is sent and answers in the same order. */
import { parentPort } from 'node:worker_threads';
import { checkEntry, type CheckRequest } from './batch-item.ts';

parentPort!.on('message', ({ entries, type }: CheckRequest) => {
  parentPort!.postMessage(entries.map((entry) => checkEntry(entry, type)));
});
