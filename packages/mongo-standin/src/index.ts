/**
 * The MongoDB stand-in's one public entry point: a server speaking MongoDB's wire protocol over a data
 * directory, for machines that cannot have a mongod. Everything else in the package is internal.
 */
export { startStandin, type StandinOptions, type StandinServer } from './server.ts';
export { DataDirInUse } from './storage/data-dir-lock.ts';
export type { StorageUpgrade } from './storage/storage.ts';
