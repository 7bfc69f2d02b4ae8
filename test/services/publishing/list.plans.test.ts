import { CompiledQuery, SqliteAdapter, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptCountQueries } from '../../../src/services/publishing/store/kysely/postCounts.js';
import { listQueries } from '../../../src/services/publishing/store/kysely/postLists.js';
import type { PostListQuery } from '../../../src/services/publishing/domain/publishingStore.js';
import { insertPosts, postRow, startPublishing, type PublishingTestServer } from './support.js';

/** A site of 10,000 posts, each with a term: the size the issue names. */
const SITE = 9;
const POSTS = 10_000;

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
  const db = harness.server.built.db;
  await db
    .insertInto('sites')
    .values({
      id: SITE,
      domain: 'big.example.com',
      path: '',
      name: 'Big',
      description: '',
      lang: 'en',
      is_private: 0,
      extra_post_types: '[]',
    })
    .execute();
  await db
    .insertInto('terms')
    .values({
      id: 9001,
      site_id: SITE,
      taxonomy: 'category',
      name: 'News',
      slug: 'news',
      description: '',
      parent_id: 0,
    })
    .execute();
  const statuses = ['publish', 'publish', 'publish', 'draft', 'trash'];
  await insertPosts(
    harness,
    Array.from({ length: POSTS }, (_, i) =>
      postRow({
        id: 100_000 + i,
        site_id: SITE,
        status: statuses[i % statuses.length],
        slug: `big-${i}`,
        date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
        modified: new Date(Date.UTC(2021, 0, 1) + i * 60_000).toISOString(),
      }),
    ),
  );
  for (let start = 0; start < POSTS; start += 500) {
    await db
      .insertInto('post_terms')
      .values(Array.from({ length: 500 }, (_, i) => ({ post_id: 100_000 + start + i, term_id: 9001 })))
      .execute();
  }
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.executeQuery(CompiledQuery.raw(sqlite ? 'analyze' : 'analyze posts'));
}, 120_000);
afterAll(() => harness?.close());

/** The store's plan of a statement, as text: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's EXPLAIN lines. */
async function plan(query: Compilable<unknown>): Promise<string> {
  const db = harness.server.built.db;
  const compiled = query.compile();
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const result = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${sqlite ? 'explain query plan' : 'explain'} ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((row) => (sqlite ? row.detail : row['QUERY PLAN'])).join('\n');
}

const page = (overrides: Partial<PostListQuery> = {}): PostListQuery => ({
  siteId: SITE,
  types: ['post'],
  statuses: ['publish'],
  visibleTo: 'published',
  sticky: 'include',
  orderBy: 'date',
  order: 'DESC',
  offset: 0,
  limit: 20,
  ...overrides,
});

/** A full read of the posts table: SQLite's `SCAN posts` without an index, PostgreSQL's sequential scan. */
const FULL_SCAN = /^SCAN posts(?! USING)|Seq Scan on posts/m;

describe('a page of 20 on a site of 10,000 posts reads through indexes', () => {
  it.each([
    ['the default list (published, newest first)', page()],
    ['the trash', page({ statuses: ['trash'], visibleTo: 'all' })],
    ['the next page by its handle', page({ after: { value: '2020-06-01T00:00:00.000Z', id: 103_500 } })],
    ['by modified, oldest first', page({ orderBy: 'modified', order: 'ASC', visibleTo: 'all' })],
  ])('%s', async (_name, query) => {
    // The page of full rows (a store without a change mark), and the page of IDs whose records are kept (SQLite's).
    const { page: rows, pageIds: ids } = listQueries(harness.server.built.db, query);
    for (const statement of [rows, ids]) {
      const planned = await plan(statement);
      expect(planned).not.toMatch(FULL_SCAN);
      expect(planned).toMatch(/posts_list_by_(date|modified)/);
    }
  });

  it('the count for callers without a token reads the kept counts and the partial index of published posts with a password', async () => {
    const db = harness.server.built.db;
    const planned = await plan({ compile: () => keptCountQueries.protectedPosts.compile(db, { siteId: SITE }) });
    expect(planned).not.toMatch(FULL_SCAN);
    expect(planned).toMatch(/posts_protected/);
    expect(await plan({ compile: () => keptCountQueries.site.compile(db, { siteId: SITE }) })).toMatch(/post_counts/);
  });

  it('and the page answers through the API', async () => {
    const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/${SITE}/posts/?fields=ID`);
    const body = (await response.json()) as { found: number; posts: { ID: number }[] };
    expect(body.found).toBe(POSTS * 0.6);
    expect(body.posts).toHaveLength(20);
    expect(body.posts[0]!.ID).toBe(100_000 + POSTS - 3);
  });
});
