import { setImmediate } from 'node:timers/promises';

/** Items an import handles between two turns of the event loop: ~10 ms of checking or composing. */
const ITEMS_PER_TURN = 50;

/**
 * The items, in order, letting the event loop turn before every ITEMS_PER_TURN-th: an import's long runs of
 * work (checking a batch's records, making its documents) then let the database's answers to its other
 * work be taken, and its next commands sent, as they come rather than once the run ends.
 */
export async function* withTurns<T>(items: Iterable<T>): AsyncGenerator<T> {
  let handled = 0;
  for (const item of items) {
    if (handled > 0 && handled % ITEMS_PER_TURN === 0) await setImmediate();
    handled += 1;
    yield item;
  }
}
