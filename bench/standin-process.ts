/**
 * The stand-in in a process of its own (bench/standin.ts forks it with the data directory as its
 * argument). The stand-in keeps every document in memory, so in the bench's process it would make the
 * bench's memory grow with the data whatever the code measured does; apart, each process's peaks are its
 * own (and they run on separate cores, as against a real mongod).
 */
import { startStandin } from 'mongo-standin';
import { childOfBench } from './child-process.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('bench/standin-process.ts takes a data directory');

const parent = childOfBench();
const server = await startStandin({ port: 0, dataDir });
parent.serve({ address: server.uri, close: () => server.close() });
