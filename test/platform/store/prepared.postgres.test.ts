// @store-independent
import { createRequire } from 'node:module';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/platform/store/database.js';
import { prepared } from '../../../src/platform/store/prepared.js';
import { postgresUrl } from '../../support/postgres.js';

interface Tables {
  notes: { id: number; owner: string; body: string };
}

// PostgreSQL whichever backend the run tests (this file runs once); the work is on a temporary table in one transaction.
const store = openDatabase<Tables>(postgresUrl, { timeoutMs: 5000 });
afterAll(() => store.close());

describe('prepared queries on PostgreSQL', () => {
  it('go as named statements (parsed and planned once per connection); other SQL goes as its text', async () => {
    const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
    const sent: unknown[] = [];
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      sent.push(args[0]);
      return query.apply(this, args);
    } as never;
    const ownersNotes = prepared((db: Kysely<Tables>, p: { owner: string }) =>
      db.selectFrom('notes').select('body').where('owner', '=', p.owner).orderBy('id'),
    );
    try {
      await store.db.transaction().execute(async (trx) => {
        await sql`create temporary table notes (id integer primary key, owner text not null, body text not null) on commit drop`.execute(
          trx,
        );
        await trx
          .insertInto('notes')
          .values([
            { id: 1, owner: 'ann', body: 'first' },
            { id: 2, owner: 'ann', body: 'second' },
            { id: 3, owner: 'bob', body: 'third' },
          ])
          .execute();
        expect(await ownersNotes.execute(trx, { owner: 'ann' })).toEqual([{ body: 'first' }, { body: 'second' }]);
        expect(await ownersNotes.execute(trx, { owner: 'bob' })).toEqual([{ body: 'third' }]);
        await trx.selectFrom('notes').select('id').where('owner', '=', 'ann').execute();
      });
    } finally {
      pg.Client.prototype.query = query as never;
    }
    const { sql: text } = ownersNotes.compile(store.db, { owner: 'ann' });
    const named = sent.filter(
      (config): config is { name: string; text: string; values: unknown[] } =>
        typeof config === 'object' && config !== null && 'name' in config,
    );
    expect(named.map((config) => config.text)).toEqual([text, text]);
    expect(named[0]!.name).toMatch(/^prepared_\d+$/);
    expect(named[1]!.name).toBe(named[0]!.name);
    expect(named.map((config) => config.values)).toEqual([['ann'], ['bob']]);
    // Built per call (not prepared): sent as its text, unnamed.
    expect(sent).toContain(store.db.selectFrom('notes').select('id').where('owner', '=', 'ann').compile().sql);
  });
});
