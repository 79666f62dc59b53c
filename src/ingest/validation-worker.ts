import { parentPort } from 'node:worker_threads';
import { checkEntry, type BatchEntry } from './batch-item.ts';
import type { RecordType } from './record-type.ts';

/** A worker thread of the validation pool: checks the entries it is sent and answers in the same order. */
export interface CheckRequest {
  entries: BatchEntry[];
  type: RecordType | undefined;
}

parentPort!.on('message', ({ entries, type }: CheckRequest) => {
  parentPort!.postMessage(entries.map((entry) => checkEntry(entry, type)));
});
