import type { TestProject } from 'vitest/node';
import { bundleEntryPoints } from '../../scripts/bundle.js';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from '../../scripts/fresh.mjs';
import { run } from '../../scripts/tools.js';
import { removeRunFolder } from './once-per-run.js';
import { createTemplateDatabase, dropRunDatabases, postgresUrl, requirePostgres } from './postgres.js';
import { requireRedisServer } from './redis.js';
import { startS3rver } from './s3.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL database that this run migrated and seeded once; test servers start on copies of it. */
    postgresTemplate: string;
    /** The run's one S3-compatible server (s3rver), for the media tests on the S3 path. */
    s3Endpoint: string;
  }
}

/**
 * Once per test run, before any test file: checks that the services the
 * suite needs are there (PostgreSQL, the `redis-server` binary) and says which
 * variable to set when one is not; builds the rendered docs, the dashboard
 * page and the mock when they are missing or stale; bundles the server and admin entry
 * points for tests that run them as processes; and migrates and seeds one
 * PostgreSQL template database that every PostgreSQL test server copies;
 * starts one S3-compatible server (s3rver) for the media tests' S3 path.
 * What test files build once for the whole run (`oncePerRun`, such as the
 * packed SDK) is removed at the end.
 */
export default async function setup(project: TestProject) {
  const run = ((globalThis as { [RUN]?: RunPreparation })[RUN] ??= {
    prepared: prepare(),
    s3: startS3rver(),
    users: 0,
  });
  run.users++;
  project.provide('postgresTemplate', await run.prepared);
  project.provide('s3Endpoint', (await run.s3).endpoint);
  return async () => {
    if (--run.users > 0) return;
    await (await run.s3).stop();
    const template = await run.prepared;
    removeRunFolder(template);
    await dropRunDatabases(template);
  };
}

/**
 * Vitest calls the setup for the root and for each project, each from a
 * module of its own, in one process: the work is done once per process.
 */
const RUN = Symbol.for('contract-first-api.test-run');
interface RunPreparation {
  prepared: Promise<string>;
  s3: ReturnType<typeof startS3rver>;
  users: number;
}

async function prepare(): Promise<string> {
  await requirePostgres();
  requireRedisServer();
  // The builds are processes of their own and the template is PostgreSQL's work: side by side, not one after the other.
  const [template] = await Promise.all([
    createTemplateDatabase(),
    buildWhenStale('ui', 'scripts/build-ui.ts'),
    buildWhenStale('docs', 'scripts/build-docs.ts'),
    buildWhenStale('mock', 'scripts/build-mock.ts'),
    // `.tmp/main.mjs` and `.tmp/admin.mjs`: what tests that run the server or the admin command line as processes start (processes.ts).
    bundleEntryPoints({ main: 'src/main.ts', admin: 'src/admin/cli.ts' }),
  ]);
  return template;
}

/**
 * Runs a build script (`npm run docs`, `build:ui`, the mock's build) unless
 * its output was built from today's inputs: the stamps `npm start` and
 * `npm run mock` read, so a test never starts a build of its own.
 */
async function buildWhenStale(name: 'docs' | 'ui' | 'mock', script: string) {
  if (isFresh(BUILD_STAMPS[name], BUILD_INPUTS[name])) return;
  const code = await run('tsx', [script], { stdio: 'ignore' });
  if (code !== 0) throw new Error(`${script} failed`);
}

export { postgresUrl };
