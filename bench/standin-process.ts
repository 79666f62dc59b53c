/**
 * The stand-in in a process of its own, for bench/import.ts. The stand-in keeps every document in memory,
 * so in the importer's process it would make the importer's memory grow with the data imported whatever
 * the importer does; apart, each process's peaks are its own (and they run on separate cores, as an
 * import into a real mongod would). Forked with the data directory as its argument: it sends its URI once
 * listening, and its memory peaks once told to stop, then exits (writing its profile under --cpu-prof).
 */
import { startStandin } from '../src/standin/server.ts';
import { sampleMemoryPeaks, type MemoryPeaks } from './memory-peaks.ts';

export type StandinProcessMessage = { uri: string } | { peaks: MemoryPeaks };

const dataDir = process.argv[2];
const send = process.send?.bind(process);
if (dataDir === undefined || send === undefined) {
  throw new Error('bench/standin-process.ts is forked by bench/import.ts with a data directory');
}

const memory = sampleMemoryPeaks();
const server = await startStandin({ port: 0, dataDir });
send({ uri: server.uri } satisfies StandinProcessMessage);
let stopping = false;
process.once('message', async () => {
  stopping = true;
  await server.close();
  send({ peaks: memory.stop() } satisfies StandinProcessMessage, () => process.disconnect());
});
// The bench failed or was interrupted: do not outlive it.
process.once('disconnect', () => {
  if (!stopping) process.exit(1);
});
