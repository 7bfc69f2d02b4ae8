/**
 * Everything the benchmark knows of the project's insides, in one file, so a
 * re-layout of src/ changes only the lines here: the server's entry point
 * and environment, the admin command line that issues credentials, the
 * router and contract modules (for the 50-operation row), the rate-limit
 * counters and request metrics (for the pieces' rows, pieces.ts), and the store's
 * `posts` table (to make posts to trash and restore).
 */
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { bundleEntryPoints } from '../bundle.js';
import { projectRoot } from '../tools.js';

export { loadContract } from '../../src/platform/contract/compile.js';
export { ContractRouter } from '../../src/platform/pipeline/router.js';
export { InProcessWindows, LibraryWindows } from '../../src/platform/security/rateLimit.js';
export { RequestMetrics } from '../../src/platform/ops/metrics.js';

/** The server's entry point, started as a child process (see harness.ts). */
export const ENTRY = 'src/main.ts';
/** The production entry point, compiled by `npm run build:server` (what start-up is timed on). */
export const COMPILED_ENTRY = 'dist/server/src/main.js';

/** Compiles the server as production runs it (`npm run build:server`). */
export function buildServer(): void {
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: projectRoot, stdio: 'inherit' });
}

/**
 * The server compiled module by module by tsc (not bundled) into `.tmp/`,
 * for profiles: in the bundle every function of every package is in one
 * file, so a profile could no longer say which package a function is in.
 * Returns its entry point, relative to the project (as `startScript` takes
 * it). It reads the contracts' YAML (no JSON beside it).
 */
export function buildUnbundledServer(): string {
  const outDir = '.tmp/profile-server';
  rmSync(join(projectRoot, outDir), { recursive: true, force: true });
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--noEmit', 'false', '--outDir', outDir, '--rootDir', '.'], {
    cwd: projectRoot,
    stdio: 'inherit',
  });
  return `${outDir}/src/main.js`;
}
/** The contract every server of the side-by-side rows answers from. */
export const PROFILES_CONTRACT = join(projectRoot, 'openapi/profiles.yaml');
/** The service prefix of the profiles contract. */
export const PROFILES_PREFIX = '/v3';

/** The server's environment (see src/platform/config.ts): SQLite (or `databaseUrl`), demo data, no logs, no rate limit in the way. */
export function serverEnv(port: number, databaseUrl: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: 'true',
    LOG_LEVEL: 'silent',
    // Production default, stated: response validation is a test and development aid.
    RESPONSE_VALIDATION: 'off',
    RATE_LIMIT_ANONYMOUS: '1000000000',
    RATE_LIMIT_KEYED: '1000000000',
    RATE_LIMIT_AVATARS: '1000000000',
    RATE_LIMIT_PUBLISHING_READS: '1000000000',
    // Every route is limited: the measured rows (keyed lookups from one address, trash and restore) must not meet a limit.
    RATE_LIMIT_KEYED_PER_CLIENT: '1000000000',
    RATE_LIMIT_PUBLISHING_WRITES: '1000000000',
    RATE_LIMIT_OTHER: '1000000000',
  };
}

/** The admin command line, bundled once per process (`.tmp/bench-admin.mjs`), so no start compiles TypeScript as tsx would. */
let adminBundle: Promise<string> | undefined;

/** Runs the admin command line on a store; resolves with its output. (Not synchronously: an idle keep-alive connection of the caller's must see its server close it.) */
async function admin(databaseUrl: string, args: string[], schema?: string): Promise<string> {
  adminBundle ??= bundleEntryPoints({ admin: 'src/admin/cli.ts' }, { prefix: 'bench-' }).then(
    (bundles) => bundles.admin,
  );
  const { stdout } = await promisify(execFile)(process.execPath, [await adminBundle, ...args], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    },
    encoding: 'utf8',
  });
  return stdout;
}

/** Issues a profiles API key through the admin command line (the key is its last line). */
export async function issueApiKey(databaseUrl: string): Promise<string> {
  return (await admin(databaseUrl, ['keys', 'create', '--email', 'bench@example.com', '--app', 'Bench']))
    .trim()
    .split('\n')
    .at(-1)!;
}

/** Issues a publishing bearer token for the demo `admin` through the admin command line (the token is its last line). */
export async function issuePublishingToken(databaseUrl: string, schema?: string): Promise<string> {
  return (await admin(databaseUrl, ['tokens', 'create', '--user', 'admin'], schema)).trim().split('\n').at(-1)!;
}

/** The published demo post every bench post is a copy of. */
const TEMPLATE_POST = 108;
/** Site of the demo posts. */
export const BENCH_SITE = 1;

/**
 * Copies the published demo post `count` times (each with a slug of its own)
 * into a SQLite store, so a benchmark can trash and restore each one once
 * per round. Returns the new post IDs. With `withTerms` each copy is also in
 * the demo post's categories and tags, so every term then holds `count`
 * posts more (the post object counts a term's posts on every read).
 */
export function makeBenchPosts(
  databaseUrl: string,
  count: number,
  firstId = 100_000,
  { withTerms = false } = {},
): number[] {
  if (!databaseUrl.startsWith('sqlite:')) throw new Error('bench posts are made in SQLite stores only');
  const sqlite = new SqliteDatabase(databaseUrl.slice('sqlite:'.length), { timeout: 10_000 });
  try {
    const ids = Array.from({ length: count }, (_, i) => firstId + i);
    sqlite.exec(`CREATE TEMP TABLE bench_post AS SELECT * FROM posts WHERE id = ${TEMPLATE_POST}`);
    const set = sqlite.prepare('UPDATE bench_post SET id = ?, slug = ?, guid = ?');
    const copy = sqlite.prepare('INSERT INTO posts SELECT * FROM bench_post');
    const terms = sqlite.prepare(
      `INSERT INTO post_terms (post_id, term_id) SELECT ?, term_id FROM post_terms WHERE post_id = ${TEMPLATE_POST}`,
    );
    sqlite.transaction(() => {
      for (const id of ids) {
        set.run(id, `bench-post-${id}`, `bench-${id}`);
        copy.run();
        if (withTerms) terms.run(id);
      }
    })();
    return ids;
  } finally {
    sqlite.close();
  }
}

/**
 * `makeBenchPosts` on PostgreSQL: copies of the published demo post in the
 * store's `schema` (each with a slug of its own, and in the demo post's
 * terms with `withTerms`). Returns the new post IDs.
 */
export async function makePostgresBenchPosts(
  databaseUrl: string,
  schema: string,
  count: number,
  firstId = 100_000,
  { withTerms = false } = {},
): Promise<number[]> {
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const ids = Array.from({ length: count }, (_, i) => firstId + i);
    await client.query('begin');
    await client.query(`create temp table bench_post as select * from posts where id = ${TEMPLATE_POST}`);
    for (const id of ids) {
      await client.query('update bench_post set id = $1, slug = $2, guid = $3', [
        id,
        `bench-post-${id}`,
        `bench-${id}`,
      ]);
      await client.query('insert into posts select * from bench_post');
      if (withTerms)
        await client.query(
          `insert into post_terms (post_id, term_id) select $1, term_id from post_terms where post_id = ${TEMPLATE_POST}`,
          [id],
        );
    }
    await client.query('drop table bench_post');
    await client.query('commit');
    return ids;
  } finally {
    await client.end();
  }
}

/** Paths of the publishing API's trash and restore of a post. */
export const trashPath = (id: number) => `/rest/v1.1/sites/${BENCH_SITE}/posts/${id}/delete`;
export const restorePath = (id: number) => `/rest/v1.1/sites/${BENCH_SITE}/posts/${id}/restore`;
/** Path of the publishing API's read of a post. */
export const readPath = (id: number) => `/rest/v1.1/sites/${BENCH_SITE}/posts/${id}`;
/** Path of the publishing API's list: a first page of 20 published posts, newest first. */
export const listPath = `/rest/v1.1/sites/${BENCH_SITE}/posts/`;
