import type { TestDatabase } from './database.ts';

/**
 * How many times the database has run a command (serverStatus `metrics.commands.<name>.total`): how a
 * test sees the round trips behind a request. Server-wide: on a shared MongoDB, others' commands count too.
 */
export async function commandsRun(database: TestDatabase, command: string): Promise<number> {
  const status = await database.client.db('admin').command({ serverStatus: 1 });
  const commands = (status.metrics as { commands?: Record<string, { total?: unknown }> } | undefined)
    ?.commands;
  return Number(commands?.[command]?.total ?? 0);
}
