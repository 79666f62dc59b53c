import type { ServerCommand } from './command.ts';

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
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
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
