import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { BUILD_INPUTS, inputsHash } from '../../scripts/fresh.mjs';
import { CONTRACTS, projectRoot, run } from '../../scripts/tools.js';
import { createTemplateDatabase, dropRunDatabases, postgresUrl, requirePostgres } from './postgres.js';
import { requireRedisServer } from './redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL database that this run migrated and seeded once; test servers start on copies of it. */
    postgresTemplate: string;
  }
}

/**
 * Once per test run, before any test file: checks that the services the
 * suite needs are there (PostgreSQL, the `redis-server` binary) and says which
 * variable to set when one is not; builds the rendered docs and the dashboard
 * page when they are missing or stale; bundles the server and admin entry
 * points for tests that run them as processes; and migrates and seeds one
 * PostgreSQL template database that every PostgreSQL test server copies.
 */
export default async function setup(project: TestProject) {
  const run = ((globalThis as { [RUN]?: RunPreparation })[RUN] ??= { prepared: prepare(), users: 0 });
  run.users++;
  project.provide('postgresTemplate', await run.prepared);
  return async () => {
    if (--run.users === 0) await dropRunDatabases(await run.prepared);
  };
}

/**
 * Vitest calls the setup for the root and for each project, each from a
 * module of its own, in one process: the work is done once per process.
 */
const RUN = Symbol.for('contract-first-api.test-run');
interface RunPreparation {
  prepared: Promise<string>;
  users: number;
}

async function prepare(): Promise<string> {
  await requirePostgres();
  requireRedisServer();
  await Promise.all([buildDashboardPage(), buildDocs(), bundleEntryPoints()]);
  return createTemplateDatabase();
}

/** `npm run docs` unless dist/docs/ was built from today's inputs (the stamp `npm start` also reads). */
async function buildDocs() {
  const stamp = join(projectRoot, 'dist/docs/.inputs-sha256');
  const built = CONTRACTS.every((name) => existsSync(join(projectRoot, 'dist/docs', `${name}.html`)));
  if (built && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash(BUILD_INPUTS.docs)) return;
  const code = await run('tsx', ['scripts/build-docs.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run docs failed');
}

/** `npm run build:ui` (esbuild, under a second) unless dist/developers/ is complete and newer than every source. */
async function buildDashboardPage() {
  const built = ['index.html', 'app.js', 'app.css', 'icon.svg'].map((file) => join(projectRoot, 'dist/developers', file));
  const sources = ['web/developers', 'generated/developer'].flatMap((dir) =>
    readdirSync(join(projectRoot, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(projectRoot, dir, file)),
  );
  const newestSource = Math.max(...sources.map((file) => statSync(file).mtimeMs));
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= newestSource)) return;
  const code = await run('tsx', ['scripts/build-ui.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run build:ui failed');
}

/**
 * `src/main.ts` and `src/admin/cli.ts` bundled to `.tmp/main.mjs` and
 * `.tmp/admin.mjs` (packages stay in node_modules). `.tmp/` sits beside
 * `src/`, so the code finds `openapi/` and `dist/` as it does from source.
 */
async function bundleEntryPoints() {
  await build({
    entryPoints: { main: join(projectRoot, 'src/main.ts'), admin: join(projectRoot, 'src/admin/cli.ts') },
    outdir: join(projectRoot, '.tmp'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
}

export { postgresUrl };
