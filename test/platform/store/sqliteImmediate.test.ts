import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../scripts/bench/statements.js';
import { openDatabase, type OpenDatabase } from '../../../src/platform/store/database.js';
import { prepared } from '../../../src/platform/store/prepared.js';

interface Tables {
  notes: { id: number; body: string };
}

const addNote = prepared((db: Kysely<Tables>, p: { id: number; body: string }) => db.insertInto('notes').values({ id: p.id, body: p.body }));
const noteCount = prepared((db: Kysely<Tables>, _p: { none?: never }) => db.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('n')));

const dir = mkdtempSync(join(tmpdir(), 'sqlite-immediate-'));
const file = join(dir, 'store.db');
const queryErrors: unknown[] = [];
let store: OpenDatabase<Tables>;

beforeAll(async () => {
  store = openDatabase<Tables>(`sqlite:${file}`, { timeoutMs: 5000, busyWaitMs: 2000, onQueryError: (error) => queryErrors.push(error) });
  await sql`create table notes (id integer primary key, body text not null)`.execute(store.db);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await sql`delete from notes`.execute(store.db);
  queryErrors.length = 0;
});

/** Whether `promise` has settled after the event loop has had `ms` to run. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

/** The statements better-sqlite3 runs while `work` runs synchronously (nothing after its first await). */
function statementsDuring(work: () => unknown): string[] {
  const seen: string[] = [];
  const stop = recordStatements((text) => seen.push(text));
  try {
    work();
  } finally {
    stop();
  }
  return seen;
}

/**
 * SQLite's prepared queries run on the connection at once when nothing else
 * is using it (`sqliteDriver.ts`, `ImmediateRunner`), and take the ordinary,
 * waiting way when something is: a transaction of another request, or
 * another process's write lock.
 */
describe('SQLite: prepared queries run at once when the connection is free', () => {
  it('runs the statement in the call itself, not after the connection is lent out asynchronously', async () => {
    let pending: Promise<number> | undefined;
    const ran = statementsDuring(() => (pending = addNote.executeChanges(store.db, { id: 1, body: 'first' })));
    expect(ran).toEqual([addNote.compile(store.db, { id: 1, body: 'first' }).sql]);
    expect(await pending).toBe(1);
    expect(await noteCount.executeTakeFirst(store.db, {})).toEqual({ n: 1 });
  });

  it('waits for a transaction that holds the connection: never reads what it has not committed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await addNote.executeChanges(trx, { id: 2, body: 'uncommitted until the gate opens' });
      inserted();
      await gate;
    });
    await insertedOnce;

    let count: Promise<{ n: number } | undefined> | undefined;
    const ran = statementsDuring(() => (count = noteCount.executeTakeFirst(store.db, {})));
    expect(ran).toEqual([]);
    expect(await settledWithin(count!, 50)).toBe(false);

    release();
    await transaction;
    expect(await count).toEqual({ n: 1 });
  });

  it("runs a transaction's own queries at once, inside it: its rollback undoes them", async () => {
    const failure = new Error('roll back');
    await expect(
      store.db.transaction().execute(async (trx) => {
        let pending: Promise<number> | undefined;
        const ran = statementsDuring(() => (pending = addNote.executeChanges(trx, { id: 3, body: 'rolled back' })));
        expect(ran).toHaveLength(1);
        expect(await pending).toBe(1);
        expect(await noteCount.executeTakeFirst(trx, {})).toEqual({ n: 1 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await noteCount.executeTakeFirst(store.db, {})).toEqual({ n: 0 });
  });

  it("waits out another process's write lock instead of failing with SQLITE_BUSY", async () => {
    const other = new SqliteDatabase(file);
    try {
      other.exec('begin immediate');
      const write = addNote.executeChanges(store.db, { id: 4, body: 'after the other writer' });
      expect(await settledWithin(write, 60)).toBe(false);
      other.exec('commit');
      expect(await write).toBe(1);
    } finally {
      other.close();
    }
    expect(queryErrors).toEqual([]);
  });

  it('reports a query that fails at once as a store error, once, and rejects with its error', async () => {
    await addNote.executeChanges(store.db, { id: 5, body: 'taken' });
    await expect(addNote.executeChanges(store.db, { id: 5, body: 'again' })).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(queryErrors).toHaveLength(1);
  });
});
