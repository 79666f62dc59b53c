import { parseArgs } from 'node:util';
import pino from 'pino';
import { startStandin, type StandinServer } from './server.ts';

/**
 * `mongo-standin --port 27018 --dbpath .data/standin [--host 127.0.0.1] [--exit-with-parent]`
 * (`npm start -w mongo-standin -- …`). Prints `standin listening on <uri>` once it accepts connections; logs
 * (pino JSON) to standard error, a failure to start as one `fatal` line whose `err` has the error's `code`
 * (ERR_DATA_DIR_IN_USE, EADDRINUSE), for a parent process to tell the operator. Before an upgrade of the
 * data directory's storage format (tables copied, in one transaction) it prints `standin upgrading …`.
 *
 * `--exit-with-parent`: standard input is a pipe from the process that started it, which nothing writes to;
 * it closes when that process goes away, even killed outright, and the stand-in then stops, letting go of
 * its port and data directory.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '27018' },
    dbpath: { type: 'string', default: '.data/standin' },
    host: { type: 'string', default: '127.0.0.1' },
    'exit-with-parent': { type: 'boolean', default: false },
  },
});

const destination = pino.destination(2);
// Standard error may be a pipe whose reader is gone (the parent, killed): the stand-in still closes cleanly.
destination.on('error', () => {});
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, destination);
let server: StandinServer;
try {
  server = await startStandin({
    host: values.host,
    port: Number(values.port),
    dataDir: values.dbpath,
    logger,
    // For a parent waiting for it to listen: an upgrade of its storage takes longer than a start.
    onUpgrade: ({ from, to, bytes }) =>
      process.stdout.write(
        `standin upgrading ${values.dbpath} from format ${from} to ${to}: copying ${Math.ceil(bytes / 2 ** 20)} MiB\n`,
      ),
  });
} catch (error) {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
}
process.stdout.write(`standin listening on ${server.uri}\n`);

let stopping = false;
async function shutdown(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ reason }, 'shutting down');
  await server.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
if (values['exit-with-parent']) process.stdin.on('end', () => void shutdown('parent gone')).resume();
