import type { ServerCommand } from './command.ts';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE_BYTES } from '../limits.ts';

/** The wire version of MongoDB 8.0, which driver v7 (minimum 9 - 4.2) accepts. */
export const MAX_WIRE_VERSION = 25;

/** Handshake and monitoring: a writable standalone server, without compression or topologyVersion. */
export const hello: ServerCommand = {
  names: ['hello', 'isMaster', 'ismaster'],
  scope: 'server',
  run({ body }, { connectionId }) {
    const legacy = !('hello' in body);
    return {
      ...(body.helloOk === true ? { helloOk: true } : {}),
      ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
      ok: 1,
    };
  },
};
