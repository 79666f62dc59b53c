import { MongoServerError } from 'mongodb';

/** MongoDB's code for a write that collides with a unique index (E11000). */
export const DUPLICATE_KEY = 11000;

export const isDuplicateKey = (error: unknown): error is MongoServerError =>
  error instanceof MongoServerError && error.code === DUPLICATE_KEY;
