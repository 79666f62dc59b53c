import type { ServerCommand } from './command.ts';

/** Sessions hold no server state here (no transactions, no retryable writes), so ending them is a no-op. */
export const endSessions: ServerCommand = { names: ['endSessions'], scope: 'server', run: () => ({ ok: 1 }) };
