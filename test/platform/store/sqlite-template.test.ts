// @store-independent: the SQLite stores' template and `sqliteImage`; PostgreSQL's servers copy a database of their own (test/support/postgres.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/platform/store/database.js';
import { fileStoreOf } from '../../../src/services/publishing/media/library.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * `openDatabase`'s `sqliteImage` opens an in-memory store as a copy of a database file's bytes, and the
 * suite's SQLite servers start on copies of one migrated and seeded store per process (test/support/server.ts):
 * each such server must hold what a server that seeded its own store holds, and nothing another one wrote.
 */
describe('an in-memory store opened from an image', () => {
  it('holds the image’s rows, and what it writes stays its own', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'image-'));
    try {
      const file = join(folder, 'source.db');
      const source = openDatabase(`sqlite:${file}`, { timeoutMs: 1000 });
      await sql`create table t (x integer)`.execute(source.db);
      await sql`insert into t values (1), (2)`.execute(source.db);
      // An image in WAL mode does not open in memory: the source leaves it.
      await sql`pragma journal_mode = DELETE`.execute(source.db);
      await source.close();
      const image = readFileSync(file);
      const count = async (store: ReturnType<typeof openDatabase>) =>
        (await sql<{ n: number }>`select count(*) as n from t`.execute(store.db)).rows[0]!.n;
      const first = openDatabase('sqlite::memory:', { timeoutMs: 1000, sqliteImage: image });
      const second = openDatabase('sqlite::memory:', { timeoutMs: 1000, sqliteImage: image });
      await sql`insert into t values (3)`.execute(first.db);
      expect(await count(first)).toBe(3);
      expect(await count(second)).toBe(2);
      expect(readFileSync(file)).toEqual(image);
      await Promise.all([first.close(), second.close()]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a test server on the SQLite template', () => {
  const servers: TestServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));
  const start = async (env: Record<string, string> = {}) => {
    const server = await startServer(env);
    servers.push(server);
    return server;
  };
  /** Every table's rows, by table, as SQLite lists them. */
  const rowsOf = async (server: TestServer) => {
    const tables = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name
    `.execute(server.built.db);
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows)
      counts[name] = (await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(server.built.db))
        .rows[0]!.n;
    return counts;
  };
  const mediaOf = (server: TestServer) => {
    const { storage } = server.config.publishing.media;
    if (storage.kind !== 'file') throw new Error('the test servers keep media in files');
    return readdirSync(storage.path, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.includes('.'))
      .sort();
  };

  it('holds what a server that migrated and seeded its own store holds: every table’s rows, the demo media', async () => {
    // A setting the seeding reads (here the store's own address) makes a server seed its own store.
    const [copied, seeded] = await Promise.all([start(), start({ DATABASE_URL: 'sqlite::memory:' })]);
    expect(await rowsOf(copied)).toEqual(await rowsOf(seeded));
    expect(Object.keys(await rowsOf(copied)).length).toBeGreaterThan(20);
    expect(mediaOf(copied)).toEqual(mediaOf(seeded));
    expect(mediaOf(copied).length).toBeGreaterThan(10);
  });

  it('keeps no media file another server replaced or removed (the template’s files are linked, not copied)', async () => {
    const [one, other] = await Promise.all([start(), start()]);
    const [first, second] = mediaOf(one);
    const folderOf = (server: TestServer) => (server.config.publishing.media.storage as { path: string }).path;
    const before = readFileSync(join(folderOf(other), first!));
    // Through the servers' own file store, as an upload or a deletion writes.
    const files = fileStoreOf(one.config.publishing.media.storage);
    await files.put(first!, Buffer.from('replaced'), 'image/jpeg');
    await files.delete(second!);
    expect(readFileSync(join(folderOf(one), first!), 'utf8')).toBe('replaced');
    expect(readFileSync(join(folderOf(other), first!))).toEqual(before);
    expect(mediaOf(other)).toContain(second);
    // And a server started after them still gets the template's files as seeded.
    const later = await start();
    expect(readFileSync(join(folderOf(later), first!))).toEqual(before);
    expect(mediaOf(later)).toEqual(mediaOf(other));
  });

  it('keeps no row another server wrote', async () => {
    const [one, other] = await Promise.all([start(), start()]);
    await sql`delete from post_meta`.execute(one.built.db);
    expect((await rowsOf(one)).post_meta).toBe(0);
    expect((await rowsOf(other)).post_meta).toBeGreaterThan(0);
  });
});
