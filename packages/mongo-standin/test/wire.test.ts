import { BSON } from 'bson';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type StandinServer } from '../src/index.ts';
import { makeDataDir } from './support/harness.ts';

let server: StandinServer;
beforeAll(async () => {
  server = await startStandin({ port: 0, dataDir: await makeDataDir() });
});
afterAll(async () => {
  await server.close();
});

function opMsg(requestId: number, body: object, sequences: [string, object[]][] = [], flags = 0): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))];
  for (const [identifier, docs] of sequences) {
    const payload = Buffer.concat([
      Buffer.from(`${identifier}\0`),
      ...docs.map((d) => Buffer.from(BSON.serialize(d))),
    ]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4);
    parts.push(Buffer.from([1]), size, payload);
  }
  const flagBits = Buffer.alloc(4);
  flagBits.writeUInt32LE(flags);
  const rest = Buffer.concat([flagBits, ...parts]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + rest.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, rest]);
}

function opQuery(requestId: number, collection: string, query: object): Buffer {
  const body = Buffer.concat([
    Buffer.alloc(4),
    Buffer.from(`${collection}\0`),
    Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]),
    Buffer.from(BSON.serialize(query)),
  ]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(2004, 12);
  return Buffer.concat([header, body]);
}

/** Reads `count` replies, returning [opCode, responseTo, document]. */
function readReplies(socket: Socket, count: number): Promise<[number, number, Record<string, unknown>][]> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const replies: [number, number, Record<string, unknown>][] = [];
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        const length = buffered.readInt32LE(0);
        const opCode = buffered.readInt32LE(12);
        const docStart = opCode === 1 ? 36 : 21;
        replies.push([
          opCode,
          buffered.readInt32LE(8),
          BSON.deserialize(buffered.subarray(docStart, length)),
        ]);
        buffered = buffered.subarray(length);
        if (replies.length === count) resolve(replies);
      }
    });
  });
}

async function open(): Promise<Socket> {
  const socket = connect(server.port, server.host);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

describe('wire protocol', () => {
  it('answers a legacy OP_QUERY isMaster with OP_REPLY', async () => {
    const socket = await open();
    const replies = readReplies(socket, 1);
    socket.write(opQuery(7, 'admin.$cmd', { isMaster: 1 }));
    const [opCode, responseTo, doc] = (await replies)[0]!;
    expect(opCode).toBe(1);
    expect(responseTo).toBe(7);
    expect(doc).toMatchObject({ ismaster: true, maxWireVersion: 25, ok: 1 });
    expect(doc.compression).toBeUndefined();
    socket.destroy();
  });

  it('handles several messages in one packet and a message split across packets, in order', async () => {
    const socket = await open();
    const replies = readReplies(socket, 3);
    const insert = opMsg(2, { insert: 'seq', $db: 'wire' }, [['documents', [{ _id: 1 }, { _id: 2 }]]]);
    const count = opMsg(3, { count: 'seq', $db: 'wire' });
    socket.write(Buffer.concat([opMsg(1, { ping: 1, $db: 'admin' }), insert, count.subarray(0, 10)]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(count.subarray(10));
    const got = await replies;
    expect(got.map(([, responseTo]) => responseTo)).toEqual([1, 2, 3]);
    expect(got[1]![2]).toMatchObject({ n: 2, ok: 1 });
    expect(got[2]![2]).toMatchObject({ n: 2, ok: 1 });
    socket.destroy();
  });

  it('does not reply to moreToCome messages but still applies them', async () => {
    const socket = await open();
    const replies = readReplies(socket, 1);
    socket.write(opMsg(10, { insert: 'quiet', $db: 'wire', documents: [{ a: 1 }] }, [], 2));
    socket.write(opMsg(11, { count: 'quiet', $db: 'wire' }));
    const [, responseTo, doc] = (await replies)[0]!;
    expect(responseTo).toBe(11);
    expect(doc).toMatchObject({ n: 1 });
    socket.destroy();
  });
});

describe('shutdown', () => {
  it('close() can be called more than once, even while the first call is running', async () => {
    const other = await startStandin({ port: 0, dataDir: await makeDataDir() });
    await Promise.all([other.close(), other.close()]);
    await expect(other.close()).resolves.toBeUndefined();
  });
});
