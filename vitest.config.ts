import { defineConfig } from 'vitest/config';

/**
 * Tests named `*.unit.test.ts` need no database and no server: `npm run test:unit` runs them alone, in
 * seconds (their support code refuses to start a database: HSDS_TEST_UNIT). The others go through real
 * parts: HTTP requests to the app, the official driver against the stand-in (or MONGODB_URI).
 */
const UNIT = '**/*.unit.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Pure code: one module cache for every file (no per-file process start and import).
          isolate: false,
          include: [`test/${UNIT}`, `packages/*/test/${UNIT}`],
          env: { HSDS_TEST_UNIT: '1' },
        },
      },
      { extends: true, test: { name: 'app', include: ['test/**/*.test.ts'], exclude: [UNIT] } },
      {
        extends: true,
        test: {
          name: 'mongo-standin',
          include: ['packages/mongo-standin/test/**/*.test.ts'],
          exclude: [UNIT],
        },
      },
    ],
  },
});
