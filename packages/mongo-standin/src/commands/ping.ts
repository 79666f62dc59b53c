import type { ServerCommand } from './command.ts';

export const ping: ServerCommand = { names: ['ping'], scope: 'server', run: () => ({ ok: 1 }) };
