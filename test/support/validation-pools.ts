import { vi } from 'vitest';
import { ValidationPool } from '../../src/ingest/validation-pool.ts';

/**
 * The validation pools the imports started from now on use, each as it is after its checks: whether their
 * records went to worker threads (`threaded`) tells the setting reached them. Restored by
 * `vi.restoreAllMocks()`.
 */
export function poolsOfImports(): ValidationPool[] {
  const pools: ValidationPool[] = [];
  const check = ValidationPool.prototype.check;
  vi.spyOn(ValidationPool.prototype, 'check').mockImplementation(function (this: ValidationPool, ...args) {
    if (!pools.includes(this)) pools.push(this);
    return check.apply(this, args);
  });
  return pools;
}
