import { badValue } from '../errors.ts';

/**
 * Refuses a field path with a `__proto__` part. MongoDB treats `__proto__` as an ordinary field name, but
 * mingo ignores it in a filter (`{__proto__: 5}` would match, and delete, every document) and in plain
 * JavaScript it names the prototype. The stand-in keeps documents holding such a field intact; naming it
 * in a filter, update, projection, sort or index key is an error here rather than a different answer.
 */
export function refuseProtoPath(path: string): void {
  if (path.split('.').includes('__proto__'))
    throw badValue(`The MongoDB stand-in does not support field paths through '__proto__': '${path}'`);
}
