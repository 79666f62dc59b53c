import { DuplicateKeyError, toCommandError } from '../errors.ts';

interface WriteError {
  index: number;
  code: number;
  codeName: string;
  errmsg: string;
  keyPattern?: Record<string, unknown>;
  keyValue?: Record<string, unknown>;
}

/**
 * Per-statement errors of insert/update/delete: reported in `writeErrors` with `ok: 1`. An ordered
 * batch stops at its first error, an unordered one goes on.
 */
export class WriteErrors {
  private readonly errors: WriteError[] = [];

  constructor(private readonly ordered: boolean) {}

  /** Runs one statement; returns false when the batch must stop. */
  attempt(index: number, statement: () => void): boolean {
    try {
      statement();
      return true;
    } catch (thrown) {
      const error = toCommandError(thrown);
      this.errors.push({
        index,
        code: error.code,
        codeName: error.codeName,
        errmsg: error.message,
        ...(error instanceof DuplicateKeyError
          ? { keyPattern: error.keyPattern, keyValue: error.keyValue }
          : {}),
      });
      return !this.ordered;
    }
  }

  reply(): { writeErrors?: WriteError[] } {
    return this.errors.length > 0 ? { writeErrors: this.errors } : {};
  }
}
