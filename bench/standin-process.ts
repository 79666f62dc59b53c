/**
 * The stand-in in a process of its own (bench/standin.ts forks it with the data directory as its
 * argument), as `npm start` runs it: each process's memory peaks are its own, and they run on separate
 * cores, as against a real mongod.
 */
import { startStandin } from 'mongo-standin';
import { childOfBench } from './child-process.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('bench/standin-process.ts takes a data directory');

const parent = childOfBench();
const server = await startStandin({ port: 0, dataDir });
parent.serve({ address: server.uri, close: () => server.close() });
