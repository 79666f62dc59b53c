import { MingoError } from 'mingo/util';

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
export const internalError = (message: string) => new CommandError(1, 'InternalError', message);
export const illegalOperation = (message: string) => new CommandError(20, 'IllegalOperation', message);
export const namespaceNotFound = (message: string) => new CommandError(26, 'NamespaceNotFound', message);
export const indexNotFound = (message: string) => new CommandError(27, 'IndexNotFound', message);
export const cursorNotFound = (id: bigint) =>
  new CommandError(43, 'CursorNotFound', `cursor id ${id} not found`);
export const conflictingUpdateOperators = (message: string) =>
  new CommandError(40, 'ConflictingUpdateOperators', message);
export const namespaceExists = (message: string) => new CommandError(48, 'NamespaceExists', message);
export const immutableField = (message: string) => new CommandError(66, 'ImmutableField', message);
export const invalidOptions = (message: string) => new CommandError(72, 'InvalidOptions', message);
export const invalidNamespace = (message: string) => new CommandError(73, 'InvalidNamespace', message);
export const indexOptionsConflict = (message: string) =>
  new CommandError(85, 'IndexOptionsConflict', message);
export const indexKeySpecsConflict = (message: string) =>
  new CommandError(86, 'IndexKeySpecsConflict', message);
export const cannotCreateIndex = (message: string) => new CommandError(67, 'CannotCreateIndex', message);
export const invalidIndexSpecificationOption = (message: string) =>
  new CommandError(197, 'InvalidIndexSpecificationOption', message);
/** A write the disk had no room for: not applied, retry once space is freed. */
export const outOfDiskSpace = (message: string) => new CommandError(14031, 'OutOfDiskSpace', message);
/** Errors MongoDB raises from an assertion site have no name of their own: codeName is `Location<code>`. */
export const locationError = (code: number, message: string) =>
  new CommandError(code, `Location${code}`, message);

/** E11000: carries the index and offending key so that writeErrors can report keyPattern and keyValue. */
export class DuplicateKeyError extends CommandError {
  constructor(
    message: string,
    readonly keyPattern: Record<string, unknown>,
    readonly keyValue: Record<string, unknown>,
  ) {
    super(11000, 'DuplicateKey', message);
  }

  override toReply() {
    return { ...super.toReply(), keyPattern: this.keyPattern, keyValue: this.keyValue };
  }
}

/** Turns anything thrown while running a command into a CommandError (mingo reports bad input by throwing). */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof MingoError) return badValue(message);
  return internalError(message);
}
