import type { Document } from 'bson';
import type { Command, CommandContext } from './commands/command.ts';
import { findCommand } from './commands/registry.ts';
import { commandNotFound, illegalOperation, invalidNamespace, toCommandError } from './errors.ts';

/**
 * Runs one command document and returns its reply; failures become MongoDB error replies, never
 * exceptions, so that a bad command cannot take a connection down. Each is counted (serverStatus
 * `metrics.commands`): a known one under its name, failed or not.
 */
export async function dispatchCommand(
  body: Document,
  databaseName: unknown,
  context: CommandContext,
): Promise<Document> {
  const name = Object.keys(body)[0] ?? '';
  const command = findCommand(name);
  // Under the command's own name, an alias's too.
  const counted = command?.names[0];
  if (counted === undefined) context.commandMetrics.recordUnknown();
  try {
    const reply = await runCommand(command, name, body, databaseName, context);
    if (counted !== undefined) context.commandMetrics.record(counted, false);
    return reply;
  } catch (error) {
    if (counted !== undefined) context.commandMetrics.record(counted, true);
    const commandError = toCommandError(error);
    if (commandError.codeName === 'InternalError')
      context.logger.error({ err: error, command: name }, 'command failed');
    return commandError.toReply();
  }
}

async function runCommand(
  command: Command | undefined,
  name: string,
  body: Document,
  databaseName: unknown,
  context: CommandContext,
): Promise<Document> {
  // A standalone mongod refuses transactions and retryable writes (both carry txnNumber).
  if ('txnNumber' in body || 'autocommit' in body || 'startTransaction' in body)
    throw illegalOperation('Transaction numbers are only allowed on a replica set member or mongos');
  if (!command) throw commandNotFound(name);
  if (typeof databaseName !== 'string') throw invalidNamespace("Missing '$db' field in the command");
  const request = { body, databaseName };
  if (command.scope === 'server') return await command.run(request, context);
  const database = context.engine.ensureDatabase(databaseName);
  if (!command.writes) return await command.run(request, database, context);
  // Writes done before a failure (earlier statements of a batch) are kept, as on MongoDB.
  const reply = database.write(() => command.run(request, database, context));
  // Acknowledged once durable; the next write has begun meanwhile.
  await database.storage.flushed();
  return reply;
}
