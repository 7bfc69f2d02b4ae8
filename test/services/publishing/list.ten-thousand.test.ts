import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, list, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * A site of 10,000 posts paged by `page_handle` (issue 43's done-when):
 * in both orders, every post once. The posts are written straight into the
 * store in a few statements, seven to a second, so most sort values are
 * shared and the ID decides.
 */
const POSTS = 10_000;
const SITE = 77;
let harness: PublishingTestServer;
const written: number[] = [];

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
  const start = Date.parse('2028-01-01T00:00:00Z');
  const rows = Array.from({ length: POSTS }, (_, i) => {
    const at = new Date(start + Math.floor(i / 7) * 1000).toISOString();
    // IDs not in date order: the ID breaks ties, not the insertion order.
    const id = 200_000 + ((i * 7919) % POSTS);
    written.push(id);
    return postRow({
      id,
      site_id: SITE,
      slug: `big-${id}`,
      guid: `https://big.example.com/?p=${id}`,
      date: at,
      modified: at,
    });
  });
  await insertPosts(harness, rows);
}, 300_000);
afterAll(() => harness?.close());

describe(`a site of ${POSTS} posts, paged by page_handle`, () => {
  it.each(['DESC', 'ASC'] as const)(
    'order=%s: every post once, in order',
    async (order) => {
      const seen: number[] = [];
      const dates: string[] = [];
      let handle: string | undefined;
      let pages = 0;
      do {
        const { status, body } = await list(harness, undefined, SITE, {
          number: 100,
          order,
          fields: 'ID,date',
          ...(handle ? { page_handle: handle } : {}),
        });
        expect(status).toBe(200);
        for (const post of body.posts as { ID: number; date: string }[]) {
          seen.push(post.ID);
          dates.push(post.date);
        }
        handle = body.meta?.next_page;
        expect(++pages).toBeLessThanOrEqual(POSTS / 100 + 1);
      } while (handle);
      expect(seen).toHaveLength(POSTS);
      expect(new Set(seen).size).toBe(POSTS);
      expect([...seen].sort((a, b) => a - b)).toEqual([...written].sort((a, b) => a - b));
      // In order: by date, then by ID, both in the order asked for.
      const sign = order === 'DESC' ? -1 : 1;
      for (let i = 1; i < seen.length; i++) {
        const byDate = Date.parse(dates[i]!) - Date.parse(dates[i - 1]!);
        expect(byDate === 0 ? sign * (seen[i]! - seen[i - 1]!) : sign * byDate).toBeGreaterThan(0);
      }
    },
    600_000,
  );
});
