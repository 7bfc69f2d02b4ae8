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
 *
 * Workers are not isolated: a worker runs many test files in one module
 * graph, so the source is imported and the contracts are compiled (most of a
 * file's cost, seconds each) once per worker instead of once per file. Test
 * files keep no module-level state that another file could see: each starts
 * its own servers and stores, and restores what it mocks.
 */
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const backendIndependent = [
  'test/contract/**',
  'test/platform/imports.test.ts',
  'test/platform/security/**',
  'test/app.test.ts',
  'test/platform/http/router.test.ts',
  'test/platform/http/headers.test.ts',
  'test/platform/ops/request-metrics.test.ts',
  'test/accounts/apiKeyCache.test.ts',
  'test/accounts/canonical-inbox.test.ts',
  'test/platform/store/migrations.test.ts',
  'test/platform/store/prepared.postgres.test.ts',
  'test/platform/store/columns.test.ts',
  'test/platform/store/sqlite-file-mode.test.ts',
  'test/platform/store/lookupCache.test.ts',
  'test/platform/store/read-your-writes.test.ts',
  'test/platform/config-compose.test.ts',
  'test/platform/http/contract.test.ts',
  'test/platform/http/pipeline.test.ts',
  'test/platform/ops/concurrency-gate.test.ts',
  'test/services/publishing/dates.test.ts',
  'test/services/profiles/avatar-libraries.test.ts',
  'test/tooling/**',
  'test/services/publishing/render.test.ts',
  'test/services/developer/domain/**',
  'test/robustness/connection.test.ts',
  'test/robustness/keep-alive.test.ts',
  'test/platform/ops/production-build.test.ts',
  'test/platform/ops/logging-shutdown.test.ts',
  'test/platform/ops/connections.process.test.ts',
  'test/services/developer/login-flood.process.test.ts',
  'test/scale/**',
  'test/faults/**',
  'test/platform/http/jsonp-csp.e2e.test.ts',
  'test/platform/http/docs.e2e.test.ts',
  'test/accounts/oauth/consent.e2e.test.ts',
  'test/platform/http/docs.test.ts',
  'test/platform/http/host-header.test.ts',
  'test/platform/http/docs-samples.test.ts',
  'test/contract/cross-origin.e2e.test.ts',
  'test/platform/ops/config-errors.test.ts',
  // The admin command line as a process (on an SQLite file); its commands run in-process on both stores in the services' admin suites.
  'test/admin/**',
  'test/services/profiles/present-profile.property.test.ts',
  'test/services/profiles/import-format.test.ts',
  'test/services/profiles/avatar-images.test.ts',
  'test/services/profiles/widgets.e2e.test.ts',
  'test/services/profiles/lookup-cache.test.ts',
  'test/services/profiles/api-keys.test.ts',
  'test/services/profiles/sdk-email-helpers.test.ts',
  'test/services/publishing/capabilities.test.ts',
  'test/services/publishing/trash-rules.test.ts',
  // Their own server on SQLite, or headers and limits that no store takes part in.
  'test/services/profiles/avatar-flood.test.ts',
  'test/services/profiles/avatar-limits.test.ts',
  'test/services/publishing/read-limits.test.ts',
  'test/platform/http/security-headers.test.ts',
  'test/platform/http/query-parameters.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/fetch-agent.ts', 'test/support/store-use.ts'],
    // Generous: several tests spawn processes (the server, the command line), slow on a loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          env: { TEST_DATABASE_URL: 'sqlite::memory:' },
          // Type tests (`*.test-d.ts`): tsc checks them, and an `@ts-expect-error` that is no longer an error fails the run.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: 'test/tsconfig.types.json' },
        },
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
