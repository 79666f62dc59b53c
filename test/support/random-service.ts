import { randomUUID } from 'node:crypto';

/** A minimal valid service of its own organization, with fresh ids, named `name`. */
export const randomService = (name: string) => ({
  id: randomUUID(),
  name,
  status: 'active',
  organization: { id: randomUUID(), name: `${name} Trust`, description: 'Help for families.' },
});
