import type { Document } from 'bson';
import { decodeDocument, encodeDocument, setField } from '../bson-values.ts';
import { rememberEncoding } from '../document-encoding.ts';
import { encodeReply } from './reply-encoding.ts';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

/** An OP_MSG command: the body with every kind-1 document sequence added as an array field. */
export interface CommandMessage {
  kind: 'msg';
  header: MessageHeader;
  body: Document;
  /** The client wants no reply (fire-and-forget writes). */
  moreToCome: boolean;
}

/** A legacy OP_QUERY: drivers only send it for the first hello/isMaster on `admin.$cmd`. */
export interface LegacyQueryMessage {
  kind: 'query';
  header: MessageHeader;
  collection: string;
  query: Document;
}

export type ClientMessage = CommandMessage | LegacyQueryMessage;

export function readHeader(message: Buffer): MessageHeader {
  return {
    length: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
}

/** Decodes one complete message; throws on malformed input or an unsupported opcode. */
export function parseMessage(message: Buffer): ClientMessage {
  const header = readHeader(message);
  if (header.opCode === OP_MSG) return parseOpMsg(header, message);
  if (header.opCode === OP_QUERY) return parseOpQuery(header, message);
  throw new Error(`unsupported opCode ${header.opCode}`);
}

function bsonAt(message: Buffer, offset: number, end: number): { doc: Document; next: number } {
  const size = message.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new Error('BSON document overruns its section');
  return { doc: decodeDocument(message.subarray(offset, offset + size)), next: offset + size };
}

function cstringAt(message: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = message.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new Error('unterminated string');
  return { value: message.toString('utf8', offset, zero), next: zero + 1 };
}

function parseOpMsg(header: MessageHeader, message: Buffer): CommandMessage {
  const flags = message.readUInt32LE(16);
  // The CRC-32C trailer is not verified: TCP already checks the bytes on loopback connections.
  const end = flags & CHECKSUM_PRESENT ? header.length - 4 : header.length;
  let offset = 20;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    if (kind === 0) {
      const { doc, next } = bsonAt(message, offset, end);
      body = doc;
      offset = next;
    } else if (kind === 1) {
      const sectionEnd = offset + message.readInt32LE(offset);
      if (sectionEnd > end) throw new Error('document sequence overruns the message');
      const identifier = cstringAt(message, offset + 4, sectionEnd);
      const docs: Document[] = [];
      let cursor = identifier.next;
      while (cursor < sectionEnd) {
        const { doc, next } = bsonAt(message, cursor, sectionEnd);
        // Inserted documents are stored as decoded: their bytes can go to the journal as they are.
        rememberEncoding(doc, message.subarray(cursor, next));
        docs.push(doc);
        cursor = next;
      }
      sequences.push([identifier.value, docs]);
      offset = sectionEnd;
    } else {
      throw new Error(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new Error('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) setField(body, identifier, docs);
  return { kind: 'msg', header, body, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

function parseOpQuery(header: MessageHeader, message: Buffer): LegacyQueryMessage {
  const collection = cstringAt(message, 20, header.length);
  const { doc } = bsonAt(message, collection.next + 8, header.length);
  return { kind: 'query', header, collection: collection.value, query: doc };
}

let nextRequestId = 1;

function frame(opCode: number, responseTo: number, payload: Uint8Array[]): Buffer {
  const header = Buffer.alloc(16);
  const length = 16 + payload.reduce((sum, part) => sum + part.length, 0);
  header.writeInt32LE(length, 0);
  header.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, ...payload]);
}

export function encodeOpMsgReply(responseTo: number, body: Document): Buffer {
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, section kind 0
  return frame(OP_MSG, responseTo, [flagsAndKind, ...encodeReply(body)]);
}

export function encodeOpReply(responseTo: number, doc: Document): Buffer {
  const fields = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return frame(OP_REPLY, responseTo, [fields, encodeDocument(doc)]);
}
