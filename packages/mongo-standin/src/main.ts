import { parseArgs } from 'node:util';
import pino from 'pino';
import { startStandin } from './server.ts';

/** `mongo-standin --port 27018 --dbpath .data/standin [--host 127.0.0.1]` (`npm start -w mongo-standin -- …`) */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '27018' },
    dbpath: { type: 'string', default: '.data/standin' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
const server = await startStandin({
  host: values.host,
  port: Number(values.port),
  dataDir: values.dbpath,
  logger,
});
process.stdout.write(`standin listening on ${server.uri}\n`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await server.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
