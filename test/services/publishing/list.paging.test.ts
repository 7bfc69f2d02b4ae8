import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, list, postRow, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Page handles over posts written through the API (issue 43, item 1): the
 * store keeps dates to the second, as the handle carries them, and breaks
 * ties by ID, so every post comes back exactly once in either order by
 * every sort key, even with many posts written in the same second.
 */
let harness: PublishingTestServer;
let admin: string;
/** The posts this file writes: through the API, and straight into the store with shared seconds. */
const written: number[] = [];
/** Every post of this file is dated after it (the demo's are older). */
let since: string;

beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
  since = new Date(Date.now() - 60_000).toISOString();
  // Same title for all: `order_by=title` has nothing but ties, decided by ID.
  for (let i = 0; i < 25; i++) {
    const { status, body } = await savePost(harness, admin, 'new', {
      title: 'Same second',
      content: `Post ${i}`,
      status: 'publish',
    });
    expect(status).toBe(200);
    written.push(body.ID as number);
  }
  // Rows as an import writes them, several in each second and each with the date of an API post, so ties surely exist.
  const rows = await harness.server.built.db
    .selectFrom('posts')
    .select(['date', 'modified'])
    .where('id', 'in', written)
    .execute();
  const extra = Array.from({ length: 12 }, (_, i) =>
    postRow({
      id: 7000 + i,
      title: 'Same second',
      slug: `imported-${i}`,
      date: rows[i % 3]!.date,
      modified: rows[i % 3]!.modified,
    }),
  );
  await insertPosts(harness, extra);
  written.push(...extra.map((row) => row.id));
});
afterAll(() => harness?.close());

const ids = (body: Record<string, any>) => (body.posts as { ID: number }[]).map((post) => post.ID);

/** Every page of a list by its handles: the posts' IDs in the order answered. */
async function walk(query: Record<string, unknown>): Promise<number[]> {
  const seen: number[] = [];
  let handle: string | undefined;
  for (let page = 1; page <= 20; page++) {
    const { status, body } = await list(harness, admin, 1, { ...query, ...(handle ? { page_handle: handle } : {}) });
    expect(status).toBe(200);
    seen.push(...ids(body));
    handle = body.meta?.next_page;
    if (!handle) return seen;
  }
  throw new Error(`the handles never ended: ${seen.join(',')}`);
}

describe('dates written through the API', () => {
  it('are kept to the second, as the platform keeps them', async () => {
    const rows = await harness.server.built.db
      .selectFrom('posts')
      .select(['id', 'date', 'modified'])
      .where('id', 'in', written)
      .execute();
    for (const row of rows) {
      expect(row.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
      expect(row.modified).toMatch(/\.000Z$/);
    }
    // Many posts share a second: the ties the ID must break.
    expect(new Set(rows.map((row) => row.date)).size).toBeLessThan(rows.length);
  });

  it('keep the second of a date given with a fraction', async () => {
    const { body } = await savePost(harness, admin, 'new', {
      title: 'Fraction',
      date: '2026-03-04T05:06:07.890Z',
      status: 'draft',
    });
    expect(body.date).toBe('2026-03-04T05:06:07+00:00');
    const row = await harness.server.built.db
      .selectFrom('posts')
      .select('date')
      .where('id', '=', body.ID)
      .executeTakeFirstOrThrow();
    expect(row.date).toBe('2026-03-04T05:06:07.000Z');
  });
});

describe('page handles over posts written in the same second', () => {
  const orders = ['DESC', 'ASC'] as const;
  const keys = ['date', 'modified', 'title', 'comment_count', 'ID'] as const;
  it.each(keys.flatMap((orderBy) => orders.map((order) => [orderBy, order] as const)))(
    'order_by=%s order=%s: every post once',
    async (orderBy, order) => {
      const seen = await walk({ number: 10, order, order_by: orderBy, after: since, fields: 'ID' });
      expect(seen).toHaveLength(written.length);
      expect([...seen].sort((a, b) => a - b)).toEqual([...written].sort((a, b) => a - b));
    },
  );
});

describe('modified_after: where a sync goes on from', () => {
  it('does not answer again the post whose modified it names (exclusive), and answers one modified later', async () => {
    const { body: newest } = await list(harness, admin, 1, { number: 1, order_by: 'modified', after: since });
    const [post] = newest.posts as { ID: number; modified: string }[];
    const after = await list(harness, admin, 1, { modified_after: post!.modified, order_by: 'modified', fields: 'ID' });
    expect(ids(after.body)).toEqual([]);
    expect(after.body.found).toBe(0);

    // Dated a second later at least: the next sync finds the edit, and only it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const edited = written[0]!;
    expect((await savePost(harness, admin, edited, { title: 'Edited' })).status).toBe(200);
    const next = await list(harness, admin, 1, {
      modified_after: post!.modified,
      order_by: 'modified',
      fields: 'ID,modified',
    });
    expect(ids(next.body)).toEqual([edited]);
  });
});
