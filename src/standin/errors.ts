/**
 * A command failure the stand-in reports the way MongoDB does: `{ ok: 0, errmsg, code, codeName }`.
 * Codes and names follow MongoDB's error_codes.yml so that the driver raises the same MongoServerError.
 */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }

  toReply(): { ok: 0; errmsg: string; code: number; codeName: string } {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName };
  }
}

export const badValue = (message: string) => new CommandError(2, 'BadValue', message);
export const failedToParse = (message: string) => new CommandError(9, 'FailedToParse', message);
export const typeMismatch = (message: string) => new CommandError(14, 'TypeMismatch', message);
export const commandNotFound = (name: string) =>
  new CommandError(59, 'CommandNotFound', `no such command: '${name}'`);
