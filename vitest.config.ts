import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';

/**
 * The behaviour suites run once per storage backend: embedded SQLite, and
 * PostgreSQL (TEST_POSTGRES_URL, default the local server's `test`
 * database; every test server gets a database of its own, copied from one
 * template that the run migrates once). Backend-independent suites
 * (rendering, the Prism mock, the processes and Redis of the scale tests)
 * run once (`backendIndependent`).
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
/**
 * The suites independent of the store, which the PostgreSQL project leaves
 * out: every file under these folders, and every other file whose first
 * line declares it (`// @store-independent`, with why when it is not plain).
 * Nothing to keep in step by hand: a new file runs on both stores until it
 * says otherwise, and one that never touches PostgreSQL fails there, saying
 * to mark it (test/support/store-use.ts).
 */
const independentFolders = [
  'test/contract/**',
  'test/platform/security/**',
  'test/tooling/**',
  'test/services/developer/domain/**',
  // Publishing's domain rules and flows on stub stores: no store at all.
  'test/services/publishing/domain/**',
  'test/services/publishing/flows/**',
  'test/scale/**',
  'test/faults/**',
  // The admin command line as a process (on an SQLite file); its commands run in-process on both stores in the services' admin suites.
  'test/admin/**',
];
const STORE_INDEPENDENT = /^\/\/ @store-independent\b/;
/** A file about what only PostgreSQL does (a deadlock between row locks), which the SQLite project leaves out: its first line says `// @postgres-only`. */
const POSTGRES_ONLY = /^\/\/ @postgres-only\b/;
const testFolder = fileURLToPath(new URL('test', import.meta.url));
const testFiles = readdirSync(testFolder, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => ({ path: `test/${file.split(sep).join('/')}`, text: readFileSync(join(testFolder, file), 'utf8') }));
const backendIndependent = [
  ...independentFolders,
  ...testFiles.filter((file) => STORE_INDEPENDENT.test(file.text)).map((file) => file.path),
];
const postgresOnly = testFiles.filter((file) => POSTGRES_ONLY.test(file.text)).map((file) => file.path);

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/fetch-agent.ts', 'test/support/store-use.ts', 'test/support/file-cpu.ts'],
    // Generous: several tests spawn processes (the server, the command line), slow on a loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The longest files first (a fresh clone has no durations of its own): see test/support/sequencer.ts.
    sequence: { sequencer: LongestFirst },
    pool: 'forks',
    isolate: false,
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: postgresOnly,
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
