import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingMigrations } from '../../../src/services/publishing/store/migrations.js';
import { list, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(() => harness?.close());

/** The objects migration `10-search-index` makes: SQLite's FTS5 table and triggers, PostgreSQL's three trigram indexes. */
async function searchObjects(db: Kysely<any>): Promise<string[]> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where name like 'posts_search%' and type in ('table', 'trigger') order by name`.execute(
      db,
    );
    return rows.map((row) => row.name).filter((name) => !/_(config|content|data|docsize|idx)$/.test(name));
  }
  const { rows } = await sql<{
    name: string;
  }>`select indexname as name from pg_indexes where tablename = 'posts' and indexname like 'posts_search%' order by indexname`.execute(
    db,
  );
  return rows.map((row) => row.name);
}

describe('migration 10-search-index', () => {
  it('builds the index for the posts already stored (undone, then run again over the demo posts)', async () => {
    const db = harness.server.built.db as Kysely<any>;
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const expected = sqlite
      ? ['posts_search', 'posts_search_delete', 'posts_search_insert', 'posts_search_update']
      : ['posts_search_content', 'posts_search_excerpt', 'posts_search_title'];
    expect(await searchObjects(db)).toEqual(expected);
    const migration = publishingMigrations.find((step) => step.name === '10-search-index')!;
    await migration.down!(db);
    expect(await searchObjects(db)).toEqual([]);
    await migration.up(db);
    expect(await searchObjects(db)).toEqual(expected);
    // The demo's welcome post, stored before the index was made, is found through it.
    const { status, body } = await list(harness, undefined, 1, { search: 'harbour town' });
    expect(status).toBe(200);
    expect((body.posts as { ID: number }[]).map((post) => post.ID)).toContain(108);
    if (sqlite) {
      const { rows } = await sql<{
        id: number;
      }>`select rowid as id from posts_search where posts_search match '"arb" AND "our"'`.execute(db);
      expect(rows.map((row) => row.id)).toContain(108);
    }
  });
});
