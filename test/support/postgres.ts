import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { configFromEnv } from '../../src/app.js';

/** The PostgreSQL server the suite runs on: `TEST_POSTGRES_URL`, default the local server's `test` database. */
export const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Every database this run creates starts with this, so the run's teardown (or the next run) can find leftovers. */
const RUN_PREFIX = 'vt_';

/** `url` with its database name replaced. */
export function databaseUrl(database: string, url = postgresUrl): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The driver's own `query`, taken before any statement recorder
 * (`scripts/bench/statements.ts`, which the tests that count a request's
 * statements use) wraps the prototype's: the support's own statements (a
 * spare copy made ahead, a drop queued by a server that closed) run beside
 * other tests, and must never be counted as a test server's.
 */
const DRIVER_QUERY = pg.Client.prototype.query;

/** A client of the suite's PostgreSQL server for the support's own statements, which no statement recorder sees. */
async function withAdminClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
  client.query = DRIVER_QUERY;
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Fails the run at once, naming the variable to set, when the PostgreSQL the suite needs does not answer. */
export async function requirePostgres(): Promise<void> {
  try {
    await withAdminClient((client) => client.query('select 1'));
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at TEST_POSTGRES_URL (${postgresUrl.replace(/\/\/[^@]*@/, '//')}): ${String(error)}. ` +
        'Start it (see the README, "Requirements") or set TEST_POSTGRES_URL to a server where this user may create databases.',
    );
  }
}

/**
 * Creates this run's template database and migrates and seeds it once, as
 * `buildApp` does at start-up; test servers then start on copies of it
 * (`copyTemplate`), a tenth of the time of migrating a fresh schema each.
 */
export async function createTemplateDatabase(): Promise<string> {
  const template = `${RUN_PREFIX}${process.pid}_${randomUUID().slice(0, 8)}_tpl`;
  await withAdminClient(async (client) => {
    await dropStale(client);
    await client.query(`create database "${template}"`);
  });
  // The demo's pictures go to a folder of its own (never the project's `data/media`); the copies' servers have theirs.
  const mediaFolder = mkdtempSync(join(tmpdir(), 'template-media-'));
  const env = { DATABASE_URL: databaseUrl(template), LOG_LEVEL: 'silent', MEDIA_STORAGE: `file:${mediaFolder}` };
  try {
    const built = await buildApp(configFromEnv(env), { logger: pino({ level: 'silent' }) });
    await built.close();
  } finally {
    rmSync(mediaFolder, { recursive: true, force: true });
  }
  return template;
}

/**
 * How a copy is made: from PostgreSQL 15, `strategy file_copy`, which copies the template's files as they are, where the
 * default (`wal_log`) reads every page of the template and writes it to the write-ahead log: about half the server's CPU
 * for a copy of a template this small (docs/performance.md, "The test suite"). Before 15 the option does not exist, and
 * copying the files is what `create database` does.
 */
let copyStrategy: Promise<string> | undefined;
const strategyOf = (client: pg.Client) =>
  (copyStrategy ??= client
    .query<{ server_version_num: string }>('show server_version_num')
    .then(({ rows }) => (Number(rows[0]!.server_version_num) >= 150_000 ? ' strategy file_copy' : '')));

/**
 * One copy of each template made ahead, per process: a test server's start takes it at once, and the next one is copied
 * while the test runs. A copy costs PostgreSQL a checkpoint and the template's files (about a fifth of a second on the
 * suite's machines), which the test would otherwise wait for. The one a process made last is left to the run's teardown
 * (`dropRunDatabases`), as are those of a process that vitest stops.
 */
const spares = new Map<string, Promise<string>>();

/** A new database copied from the run's template (`create database … template`), with the demo data in it. */
export async function copyTemplate(template: string): Promise<string> {
  const spare = spares.get(template);
  // A spare that failed (PostgreSQL restarting, say) is made again now, as a start without one would be.
  const name = await (spare?.catch(() => newCopy(template)) ?? newCopy(template));
  const next = newCopy(template);
  // Its failure is the next start's, above: not an unhandled rejection of this one.
  next.catch(() => {});
  spares.set(template, next);
  return name;
}

async function newCopy(template: string): Promise<string> {
  const name = `${template.replace(/_tpl$/, '')}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await withAdminClient(async (client) => {
    const strategy = await strategyOf(client);
    // Two copies of one template at the same instant can collide on the template's lock: try again briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${template}"${strategy}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  });
  return name;
}

/** Drops a test server's database, ending any connection still open to it. */
export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** Drops waiting in this process's queue (`dropDatabaseLater`) beyond which a closing server waits for its own. */
const MOST_DROPS_PENDING = 4;
let dropsPending = 0;
let drops: Promise<void> = Promise.resolve();

/**
 * Drops a closed test server's database after the drops queued before it, one at a time, while the tests go on (a drop
 * costs PostgreSQL a checkpoint too). Resolves at once, or when its drop is done if `MOST_DROPS_PENDING` were already
 * waiting, so a file that closes servers faster than PostgreSQL drops them does not pile them up. A drop that fails
 * leaves the copy to the run's teardown (`dropRunDatabases`), which drops every copy still there.
 */
export function dropDatabaseLater(name: string): Promise<void> {
  dropsPending++;
  const done = drops
    .then(() => dropDatabase(name))
    .catch(() => {})
    .finally(() => dropsPending--);
  drops = done;
  return dropsPending > MOST_DROPS_PENDING ? done : Promise.resolve();
}

/**
 * Drops the run's template and every copy of it still there, once no copy is still being made: a worker that vitest
 * stopped may have left a spare's `create database` running (`copyTemplate`), which PostgreSQL finishes anyway.
 */
export async function dropRunDatabases(template: string): Promise<void> {
  const prefix = template.replace(/_tpl$/, '');
  await withAdminClient(async (client) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const { rows } = await client.query<{ making: number }>(
        "select count(*)::int as making from pg_stat_activity where state = 'active' and query like $1",
        [`create database "${prefix}%`],
      );
      if (!rows[0]!.making) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  });
}

/** Databases that runs which were killed left behind (older than a day). */
async function dropStale(client: pg.Client) {
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${RUN_PREFIX}%' and (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - interval '1 day'`,
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } catch {
    // Reading file times needs a superuser; without one, leftovers stay until someone drops them.
  }
}
