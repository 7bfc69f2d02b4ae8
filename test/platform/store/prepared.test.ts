import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/platform/store/database.js';
import { prepared } from '../../../src/platform/store/prepared.js';

interface Tables {
  notes: { id: number; owner: string; body: string; state: string };
}

// The store of this run's backend (SQLite in memory, or PostgreSQL); every test works in one transaction on a temporary table.
const store = openDatabase<Tables>(process.env.TEST_DATABASE_URL ?? 'sqlite::memory:', { timeoutMs: 5000 });
afterAll(() => store.close());

async function withNotes(work: (trx: Kysely<Tables>) => Promise<void>) {
  await store.db.transaction().execute(async (trx) => {
    await sql`create temporary table notes (id integer primary key, owner text not null, body text not null, state text not null)`.execute(
      trx,
    );
    try {
      await trx
        .insertInto('notes')
        .values([
          { id: 1, owner: 'ann', body: 'first', state: 'open' },
          { id: 2, owner: 'ann', body: 'second', state: 'closed' },
          { id: 3, owner: 'bob', body: 'third', state: 'open' },
        ])
        .execute();
      await work(trx);
    } finally {
      await sql`drop table notes`.execute(trx);
    }
  });
}

describe('prepared queries', () => {
  it('builds and compiles a query once, then runs it with each call’s values', async () => {
    let builds = 0;
    const openNotesOf = prepared((db: Kysely<Tables>, p: { owner: string }) => {
      builds++;
      return db
        .selectFrom('notes')
        .select(['id', 'body'])
        .where('owner', '=', p.owner)
        .where('state', '=', 'open')
        .orderBy('id');
    });
    await withNotes(async (trx) => {
      expect(await openNotesOf.execute(trx, { owner: 'ann' })).toEqual([{ id: 1, body: 'first' }]);
      expect(await openNotesOf.execute(trx, { owner: 'bob' })).toEqual([{ id: 3, body: 'third' }]);
      expect(await openNotesOf.executeTakeFirst(trx, { owner: 'nobody' })).toBeUndefined();
    });
    expect(builds).toBe(1);
  });

  it('keeps the constants of the query and puts each value where its placeholder stood, however often used', async () => {
    const query = prepared((db: Kysely<Tables>, p: { a: string; b: number }) =>
      db
        .selectFrom('notes')
        .select('id')
        .where('owner', '=', p.a)
        .where('state', '=', 'open')
        .where('id', '>=', p.b)
        .where('body', '!=', p.a),
    );
    await withNotes(async (trx) => {
      const compiled = query.compile(trx, { a: 'ann', b: 1 });
      expect(compiled.parameters).toEqual(['ann', 'open', 1, 'ann']);
      // The SQL is the one Kysely compiles for the same query built with the values.
      const direct = trx
        .selectFrom('notes')
        .select('id')
        .where('owner', '=', 'ann')
        .where('state', '=', 'open')
        .where('id', '>=', 1)
        .where('body', '!=', 'ann')
        .compile();
      expect(compiled.sql).toBe(direct.sql);
    });
  });

  it('counts the rows an update changes (a compare-and-set sees 1, then 0)', async () => {
    const close = prepared((db: Kysely<Tables>, p: { id: number }) =>
      db.updateTable('notes').set({ state: 'closed' }).where('id', '=', p.id).where('state', '=', 'open'),
    );
    await withNotes(async (trx) => {
      expect(await close.executeChanges(trx, { id: 3 })).toBe(1);
      expect(await close.executeChanges(trx, { id: 3 })).toBe(0);
      expect((await trx.selectFrom('notes').select('state').where('id', '=', 3).executeTakeFirstOrThrow()).state).toBe(
        'closed',
      );
    });
  });
});
