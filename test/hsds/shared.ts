import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The official HSDS material, kept next to the repository (../shared/hsds from the repo root). */
export const sharedHsdsDir = fileURLToPath(new URL('../../../shared/hsds/', import.meta.url));

export const hasSharedHsds = existsSync(sharedHsdsDir);

export const skipReason = `official HSDS material not found at ${sharedHsdsDir}`;

if (!hasSharedHsds) console.warn(`Skipping HSDS example and official-schema tests: ${skipReason}`);

export const readSharedJson = (relativePath: string): unknown =>
  JSON.parse(readFileSync(sharedHsdsDir + relativePath, 'utf8'));
