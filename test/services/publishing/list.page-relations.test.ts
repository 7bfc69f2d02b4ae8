import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertSurroundedPosts,
  list,
  postRow,
  read,
  CALLERS_REMEMBERED,
  startPublishing,
  statementsAfterChange,
  type PublishingTestServer,
} from './support.js';

let harness: PublishingTestServer;
let admin: string;
let contributor: string;
beforeAll(async () => {
  harness = await startPublishing(CALLERS_REMEMBERED);
  admin = await harness.tokenFor('admin');
  contributor = await harness.tokenFor('contributor');
});
afterAll(() => harness?.close());

/**
 * A list reads what surrounds its posts (authors, ancestors, terms,
 * attachments, counts, metadata, revisions) for the whole page at once
 * (`pageRelations`): each post must come out as the single read answers
 * it, whatever it has around it, and the statements must not grow with the
 * page.
 */
describe('a page of posts reads what surrounds them at once', () => {
  // Every post of every type and status (the demo site has pages with parents, galleries, featured images, terms, metadata, likes and comments).
  const everything = { status: 'any,trash', type: 'any', number: 100 } as const;

  for (const [who, context] of [
    ['anonymous', 'display'],
    ['admin', 'display'],
    ['admin', 'edit'],
    ['contributor', 'display'],
  ] as const) {
    it(`answers each post as the single read does (${who}, context=${context})`, async () => {
      const token = who === 'admin' ? admin : who === 'contributor' ? contributor : undefined;
      const { status, body } = await list(harness, token, 1, { ...everything, context });
      expect(status).toBe(200);
      expect(body.posts.length).toBeGreaterThan(who === 'admin' ? 5 : 1);
      for (const post of body.posts as { ID: number }[]) {
        const single = await read(harness, token, 1, post.ID, { context });
        expect(single.status).toBe(200);
        // Byte for byte: the same keys in the same order.
        expect(JSON.stringify(post), `post ${post.ID}`).toBe(JSON.stringify(single.body));
      }
    });
  }

  it('reads a page of 20 in as many statements as a page of 2', async () => {
    // 25 posts in the demo post's terms, with metadata: every kind of row has something to read.
    await insertSurroundedPosts(
      harness,
      Array.from({ length: 25 }, (_, i) =>
        postRow({ id: 3000 + i, date: `2026-06-01T10:${String(i).padStart(2, '0')}:00.000Z` }),
      ),
    );
    const statementsOf = (number: number) =>
      statementsAfterChange(harness, async () => {
        const { status, body } = await list(harness, admin, 1, { number });
        expect(status).toBe(200);
        expect(body.posts).toHaveLength(number);
      });
    await statementsOf(2);
    const two = await statementsOf(2);
    const twenty = await statementsOf(20);
    expect(twenty.length, twenty.join('\n')).toBe(two.length);
  });
});
