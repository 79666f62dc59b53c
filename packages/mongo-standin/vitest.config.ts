import { defineConfig } from 'vitest/config';

/** The package's tests alone (`npm test -w mongo-standin`); the repository's root config runs them too. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
