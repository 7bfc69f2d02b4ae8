import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The behaviour suites run once per storage backend: embedded SQLite, and
 * PostgreSQL (TEST_POSTGRES_URL, default the local server's `test`
 * database; every test server gets a database of its own, copied from one
 * template that the run migrates once). Backend-independent suites
 * (rendering, the Prism mock, the processes and Redis of the scale tests)
 * run once.
 *
 * Test files run in parallel: no two share a store, a port or a Redis. Most
 * of a file's time is spent waiting on sockets and child processes, so one
 * worker more than the machine has cores keeps both cores busy.
 */
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const backendIndependent = [
  'test/contract/**',
  'test/tooling/**',
  'test/publishing/render.test.ts',
  'test/developer/domain/**',
  'test/robustness/connection.test.ts',
  'test/ops/production-build.test.ts',
  'test/scale/**',
  'test/faults/**',
  'test/http/jsonp-csp.e2e.test.ts',
  'test/ops/config-errors.test.ts',
  'test/profiles/present-profile.property.test.ts',
  'test/profiles/import-format.test.ts',
  'test/profiles/avatar-images.test.ts',
  'test/profiles/widgets.e2e.test.ts',
  'test/profiles/lookup-cache.test.ts',
  'test/profiles/api-keys.test.ts',
  'test/publishing/capabilities.test.ts',
  'test/publishing/trash-rules.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], env: { TEST_DATABASE_URL: 'sqlite::memory:' } },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: backendIndependent,
          env: { TEST_DATABASE_URL: postgresUrl },
        },
      },
    ],
  },
});
