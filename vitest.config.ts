import { defineConfig } from 'vitest/config';

/**
 * The behaviour suites run once per storage backend: embedded SQLite, and
 * PostgreSQL (TEST_POSTGRES_URL, default the local server's `test`
 * database; every developer and CI machine runs one). Backend-independent
 * suites (rendering, the Prism mock) run once.
 */
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const backendIndependent = [
  'test/contract/**',
  'test/publishing/render.test.ts',
  'test/developer/domain/**',
  'test/robustness/connection.test.ts',
  'test/ops/production-build.test.ts',
  'test/scale/**',
  'test/profiles/present-profile.property.test.ts',
  'test/profiles/import-format.test.ts',
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
