import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { inject } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { configFromEnv, type Config } from '../../src/app.js';
import { onFirstSuccess } from '../../src/platform/onFirstUse.js';
import { TEST_PASSWORD_COST } from '../../src/services/developer/domain/password.js';
import { createHttpServer } from '../../src/platform/server.js';
import { dropSchema } from '../../scripts/tools.js';
import { runFolder } from './once-per-run.js';
import { copyTemplate, databaseUrl as databaseNamed, dropDatabaseLater, postgresUrl } from './postgres.js';

export interface TestServer {
  url: string;
  config: Config;
  built: BuiltApp;
  server: Server;
  close(): Promise<void>;
}

/** What a test server is started with besides its environment. */
export interface StartOptions {
  /** Receives the app's logs (silent unless TEST_LOG_LEVEL says otherwise). */
  logger?: Logger;
  /**
   * The services the test uses (`SERVICES`), when `env` does not name them: a server builds only these
   * (every one when neither says). A service harness (`startProfiles`, `startPublishing`) names its own.
   */
  services?: readonly string[];
  /**
   * The store, when the test names it whatever the project (a file that runs on both stores itself,
   * `startOnBothStores`): in-memory SQLite, or a copy of the run's PostgreSQL template. Unset: TEST_DATABASE_URL's.
   */
  store?: 'sqlite' | 'postgres';
}

/**
 * Builds the app on a throw-away store (see `testStore`), with strict
 * response validation, passwords hashed at the test cost (below what any
 * variable allows, see `atTestPasswordCost`; a test that sets
 * `DEVELOPER_PASSWORD_COST` gets that cost and the deployments' floor), and the limits of the docs, the dashboard's other
 * requests and publishing writes out of reach (unless `env` sets them), and listens on an ephemeral loopback port (or
 * `env.PORT`). The services built are those `env.SERVICES` or
 * `options.services` names, else all.
 */
export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  const store = await testStore(env, options.store);
  // Media files in a folder of the server's own (never the project's `data/media`), removed on close, in the run's
  // folder (which the run's end removes, as a worker that vitest stops closes no server): the template's are there too.
  mkdirSync(join(runFolder(), 'media'), { recursive: true });
  const mediaFolder = mkdtempSync(join(runFolder(), 'media', 'server-'));
  const config = atTestPasswordCost(env, {
    MEDIA_STORAGE: `file:${mediaFolder}`,
    RESPONSE_VALIDATION: 'strict',
    LOG_LEVEL: 'silent',
    ...(options.services ? { SERVICES: options.services.join(',') } : {}),
    // Every route is limited per address, and a test's requests all come from one: the limits no test is about
    // are out of reach (a test of one sets it).
    RATE_LIMIT_OTHER: '1000000',
    RATE_LIMIT_DEVELOPER: '1000000',
    RATE_LIMIT_PUBLISHING_WRITES: '1000000',
    ...env,
    ...store.env,
  });
  let built: BuiltApp;
  try {
    built = await buildApp(config, {
      logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      ...(store.template ? { sqliteImage: await templateWithMedia(store.template, mediaFolder) } : {}),
    });
  } catch (error) {
    await store.drop();
    rmSync(mediaFolder, { recursive: true, force: true });
    throw error;
  }
  const server = createHttpServer(built, config, built.services);
  // An ephemeral port, unless `env.PORT` names one (so PUBLIC_URL can be the server's own address).
  await new Promise<void>((resolve) => server.listen(env.PORT ? Number(env.PORT) : 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    config,
    built,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await built.close();
      await store.drop();
      rmSync(mediaFolder, { recursive: true, force: true });
    },
  };
}

/**
 * The configuration of `all` (the test's `env` among it), its password hashes at `TEST_PASSWORD_COST` (1 MiB
 * each, where the deployments' floor takes 16) unless the test's `env` sets `DEVELOPER_PASSWORD_COST`: most
 * sign-ups and log-ins of the suite are there to test what comes after them. The cost itself, the hash gate and
 * the processes keep real costs (docs/decisions/test-password-cost.md).
 */
function atTestPasswordCost(env: Record<string, string>, all: Record<string, string>): Config {
  const config = configFromEnv(all);
  if ('DEVELOPER_PASSWORD_COST' in env) return config;
  return {
    ...config,
    developer: { ...config.developer, passwordCost: TEST_PASSWORD_COST, passwordCostFloor: TEST_PASSWORD_COST },
  };
}

/**
 * The store a test server starts on. In-memory SQLite unless
 * TEST_DATABASE_URL or `env` says otherwise. On the suite's PostgreSQL, a
 * database of the server's own, copied from the run's migrated and seeded
 * template (with demo data, as a fresh start would seed it; `copyTemplate`
 * has one made ahead) and dropped after close without the test waiting
 * (`dropDatabaseLater`); a test that names its own `DATABASE_URL` or
 * `DATABASE_SCHEMA`, or turns the demo data off, gets a schema of its own in
 * the suite's database instead, migrated at start-up as in production.
 */
async function testStore(
  env: Record<string, string>,
  named?: StartOptions['store'],
): Promise<{ env: Record<string, string>; template?: Promise<SqliteTemplate>; drop(): Promise<void> }> {
  const projectUrl = named
    ? { sqlite: 'sqlite::memory:', postgres: postgresUrl }[named]
    : process.env.TEST_DATABASE_URL;
  const url = env.DATABASE_URL ?? projectUrl ?? 'sqlite::memory:';
  if (url === 'sqlite::memory:' && !SEEDING_SETTINGS.some((name) => name in env))
    return { env: { DATABASE_URL: url }, template: sqliteTemplate(), drop: async () => {} };
  if (!url.startsWith('postgres')) return { env: { DATABASE_URL: url }, drop: async () => {} };
  if (!env.DATABASE_URL && !env.DATABASE_SCHEMA && env.SEED_DEMO_DATA !== 'false' && url === postgresUrl) {
    const database = await copyTemplate(inject('postgresTemplate'));
    return { env: { DATABASE_URL: databaseNamed(database) }, drop: () => dropDatabaseLater(database) };
  }
  if (env.DATABASE_SCHEMA) return { env: { DATABASE_URL: url }, drop: async () => {} };
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  return { env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, drop: () => dropSchema(url, schema) };
}

/**
 * What a start's seeding reads besides the store: a test that sets one gets a store seeded by its own
 * server, not a copy of the template (which a start with none of them seeded).
 */
const SEEDING_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'SEED_DEMO_DATA',
  'NODE_ENV',
  'MEDIA_STORAGE',
  'MEDIA_BASE_URL',
  'PUBLIC_URL',
];

/** A migrated and seeded SQLite store: its bytes, and the folder of the demo media its seeding wrote, with its files. */
interface SqliteTemplate {
  image: Buffer;
  media: string;
  /** The media's files, by their paths in the folder. */
  mediaFiles: string[];
}

/**
 * The SQLite counterpart of PostgreSQL's template: a store migrated and seeded as a fresh start does it,
 * once per process, as a database image that each in-memory test server starts from (`sqliteImage` of
 * `buildApp`), with a copy of the demo media the seeding wrote. Migrating and seeding cost a new store
 * about 90 ms of CPU, and a worker starts hundreds. Built on a file in rollback-journal mode, since an
 * image in WAL mode cannot be opened in memory.
 */
const sqliteTemplate = onFirstSuccess(async (): Promise<SqliteTemplate> => {
  // In the run's folder, which the run's end removes (a worker that vitest stops runs no exit handler).
  const folder = join(runFolder(), `sqlite-template-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'template.db');
  const media = join(folder, 'media');
  const built = await buildApp(
    configFromEnv({ DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent', MEDIA_STORAGE: `file:${media}` }),
    { logger: pino({ level: 'silent' }) },
  );
  try {
    await sql`pragma journal_mode = DELETE`.execute(built.db);
  } finally {
    await built.close();
  }
  const mediaFiles = readdirSync(media, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(media, join(entry.parentPath, entry.name)));
  return { image: readFileSync(file), media, mediaFiles };
});

/**
 * The template's image, its demo media put into a server's own media folder first: each file hard-linked, not
 * copied (cheaper to put and to remove: docs/performance.md, "The test suite"). Safe
 * because the file store never writes into a file it holds: it writes a new file and renames it over the key,
 * and removes by unlinking (`src/platform/files/fileStore.ts`), so what a server changes stays its own
 * (`sqlite-template.test.ts`). Copied where a link is refused (another file system).
 */
async function templateWithMedia(pending: Promise<SqliteTemplate>, mediaFolder: string): Promise<Buffer> {
  const { image, media, mediaFiles } = await pending;
  for (const file of mediaFiles) {
    const target = join(mediaFolder, file);
    mkdirSync(dirname(target), { recursive: true });
    try {
      linkSync(join(media, file), target);
    } catch (error) {
      if (!['EXDEV', 'EPERM', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      copyFileSync(join(media, file), target);
    }
  }
  return image;
}

/** Drops a test's own PostgreSQL schema. */
export { dropSchema };
