import type { Document } from 'bson';
import { createServer, type Socket } from 'node:net';
import pino, { type Logger } from 'pino';
import type { CommandContext } from './commands/command.ts';
import { CommandMetrics } from './command-metrics.ts';
import { CursorRegistry } from './cursors.ts';
import { dispatchCommand } from './dispatcher.ts';
import { Engine } from './engine/engine.ts';
import { locationError } from './errors.ts';
import type { StorageUpgrade } from './storage/storage.ts';
import { SerialQueue } from './serial-queue.ts';
import { FrameSplitter } from './wire/frame-splitter.ts';
import { encodeOpMsgReply, encodeOpReply, parseMessage, type ClientMessage } from './wire/messages.ts';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE_BYTES } from './limits.ts';

export interface StandinOptions {
  host?: string;
  port: number;
  dataDir: string;
  logger?: Logger;
  /** Told of an upgrade of the data directory's storage format before it runs (it copies tables). */
  onUpgrade?: (upgrade: StorageUpgrade) => void;
}

export interface StandinServer {
  host: string;
  port: number;
  uri: string;
  close(): Promise<void>;
}

/** Largest message accepted: maxMessageSizeBytes plus room for the header and body of an OP_MSG. */
const MAX_INCOMING_BYTES = MAX_MESSAGE_SIZE_BYTES + MAX_BSON_OBJECT_SIZE;

const LEGACY_HANDSHAKES = new Set(['hello', 'isMaster', 'ismaster']);

/** Starts a MongoDB wire protocol server over the data in `dataDir`. */
export async function startStandin(options: StandinOptions): Promise<StandinServer> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const engine = await Engine.open({
    dataDir: options.dataDir,
    onUpgrade: (upgrade) => {
      logger.info({ ...upgrade, dataDir: options.dataDir }, 'upgrading the storage format: copying tables');
      options.onUpgrade?.(upgrade);
    },
  });
  const cursors = new CursorRegistry();
  const sockets = new Set<Socket>();
  const startedAt = Date.now();
  const commandMetrics = new CommandMetrics();
  let nextConnectionId = 1;

  const server = createServer((socket) => {
    const context: CommandContext = {
      engine,
      cursors,
      logger,
      connectionId: nextConnectionId++,
      startedAt,
      commandMetrics,
    };
    sockets.add(socket);
    socket.setNoDelay(true);
    const splitter = new FrameSplitter(MAX_INCOMING_BYTES);
    const replies = new SerialQueue();
    socket.on('data', (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = splitter.push(chunk);
      } catch (error) {
        logger.warn({ err: error }, 'closing connection after a malformed message');
        socket.destroy();
        return;
      }
      // One command at a time per connection, as mongod: a write sent without waiting for its reply
      // (moreToCome) is applied before the connection's next command reads.
      for (const bytes of messages)
        void replies.run(async () => {
          const out = await answer(bytes, context);
          if (out && !socket.destroyed) socket.write(out);
        });
    });
    socket.on('error', (error) => logger.debug({ err: error }, 'connection error'));
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(bytes: Buffer, context: CommandContext): Promise<Buffer | null> {
    let message: ClientMessage;
    try {
      message = parseMessage(bytes);
    } catch (error) {
      logger.warn({ err: error }, 'unparseable message');
      return null;
    }
    if (message.kind === 'msg') {
      const reply = await dispatchCommand(message.body, message.body.$db, context);
      return message.moreToCome ? null : encodeOpMsgReply(message.header.requestId, reply);
    }
    const query: Document = '$query' in message.query ? (message.query.$query as Document) : message.query;
    const name = Object.keys(query)[0] ?? '';
    const reply =
      message.collection.endsWith('.$cmd') && LEGACY_HANDSHAKES.has(name)
        ? await dispatchCommand(query, message.collection.slice(0, -'.$cmd'.length), context)
        : locationError(
            5739101,
            `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal`,
          ).toReply();
    return encodeOpReply(message.header.requestId, reply);
  }

  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // The port is taken: the data directory is let go for whoever may open it next.
    await engine.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const uriHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    cursors.close();
    await engine.close();
  }

  return {
    host,
    port,
    uri: `mongodb://${uriHost}:${port}/?directConnection=true`,
    // Idempotent: a second call waits for the first shutdown instead of closing twice.
    close: () => (closing ??= close()),
  };
}
