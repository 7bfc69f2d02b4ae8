// @store-independent
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../../src/platform/store/database.js';

/**
 * A SQLite store's change mark: the same while nothing changed, another once
 * anything may have (this connection's writes, counted before they run,
 * rolled back or not; another connection's commits): what is kept under a
 * mark (rendered post objects) is good exactly while it holds.
 */
let file: string;
let store: OpenDatabase;
beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), 'mark-')), 'app.db');
  store = openDatabase(`sqlite:${file}`, { timeoutMs: 5000 });
  await sql`create table notes (id integer primary key, body text not null)`.execute(store.db);
  await sql`insert into notes (body) values ('one')`.execute(store.db);
});
afterAll(() => store?.close());

const mark = () => {
  const value = store.changeMark!();
  expect(value).toBeTypeOf('string');
  return value!;
};

describe('the change mark of a SQLite store', () => {
  it('holds across reads', async () => {
    const before = mark();
    await sql`select * from notes`.execute(store.db);
    await store.db
      .selectFrom('notes' as never)
      .selectAll()
      .execute();
    expect(mark()).toBe(before);
  });

  it('changes with a write of this connection, and with one that returns rows', async () => {
    const before = mark();
    await sql`update notes set body = 'two' where id = 1`.execute(store.db);
    const afterUpdate = mark();
    expect(afterUpdate).not.toBe(before);
    await sql`insert into notes (body) values ('three') returning id`.execute(store.db);
    expect(mark()).not.toBe(afterUpdate);
  });

  it('changes with a write inside a transaction before it commits, and again when it rolls back', async () => {
    const before = mark();
    let inside: string | undefined;
    await expect(
      store.db.transaction().execute(async (trx) => {
        await sql`update notes set body = 'rolled back' where id = 1`.execute(trx);
        inside = mark();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(inside).not.toBe(before);
    expect(mark()).not.toBe(inside);
  });

  it('changes with a commit of another connection (an admin command, another process)', async () => {
    const before = mark();
    const other = new SqliteDatabase(file);
    try {
      other.prepare("update notes set body = 'from elsewhere' where id = 1").run();
    } finally {
      other.close();
    }
    expect(mark()).not.toBe(before);
    const { rows } = await sql<{ body: string }>`select body from notes where id = 1`.execute(store.db);
    expect(rows[0]!.body).toBe('from elsewhere');
  });
});

describe('a PostgreSQL store', () => {
  it('has no change mark: other instances write to it unseen', async () => {
    const postgres = openDatabase('postgres://postgres@127.0.0.1:5432/test', { timeoutMs: 5000 });
    try {
      expect(postgres.changeMark).toBeUndefined();
    } finally {
      await postgres.close();
    }
  });
});
