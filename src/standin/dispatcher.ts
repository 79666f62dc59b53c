import type { Document } from 'bson';
import type { CommandContext } from './commands/command.ts';
import { commandName, lookupCommand } from './commands/registry.ts';
import { illegalOperation, invalidNamespace, toCommandError } from './errors.ts';

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
  const counted = commandName(name);
  if (counted === undefined) context.commandMetrics.recordUnknown();
  try {
    const reply = await runCommand(name, body, databaseName, context);
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
  name: string,
  body: Document,
  databaseName: unknown,
  context: CommandContext,
): Promise<Document> {
  // A standalone mongod refuses transactions and retryable writes (both carry txnNumber).
  if ('txnNumber' in body || 'autocommit' in body || 'startTransaction' in body)
    throw illegalOperation('Transaction numbers are only allowed on a replica set member or mongos');
  const command = lookupCommand(name);
  if (typeof databaseName !== 'string') throw invalidNamespace("Missing '$db' field in the command");
  const request = { body, databaseName };
  if (command.scope === 'server') return await command.run(request, context);
  const database = context.engine.ensureDatabase(databaseName);
  let durable: Promise<void> = Promise.resolve();
  try {
    return await database.exclusive(async () => {
      try {
        return await command.run(request, database, context);
      } finally {
        // Writes done before a failure (earlier statements of a batch) are kept, as on MongoDB.
        durable = database.commit();
      }
    });
  } finally {
    // The reply waits for its writes to be durable; the next command has already begun meanwhile.
    await durable;
    if (database.shouldCompact) await database.compact();
  }
}
