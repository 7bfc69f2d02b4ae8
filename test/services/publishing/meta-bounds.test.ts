import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, startPublishing, type PublishingTestServer } from './support.js';

/**
 * `meta=likes` and `meta=replies` load the link's first page only (20
 * items, newest first, as the platform pages comments), with `found`
 * counting all; the links themselves take `number` (at most 100). Any JSON
 * answer larger than MAX_ANSWER_BYTES is refused in the service's format.
 */
const COMMENTS = 130;
const LIKERS = 45;
let harness: PublishingTestServer;

beforeAll(async () => {
  harness = await startPublishing();
  const db = harness.server.built.db;
  await db
    .insertInto('comments')
    .values(
      Array.from({ length: COMMENTS }, (_, i) => ({
        id: 90_000 + i,
        post_id: 108,
        parent_id: null,
        author_id: null,
        author_name: `Visitor ${i}`,
        author_email: `visitor${i}@example.com`,
        author_url: '',
        date: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString(),
        content: `Comment number ${i}`,
        status: 'approved',
        status_before_trash: null,
      })),
    )
    .execute();
  await db
    .insertInto('users')
    .values(
      Array.from({ length: LIKERS }, (_, i) => ({
        id: 80_000 + i,
        login: `liker${i}`,
        email: `liker${i}@example.com`,
        display_name: `Liker ${i}`,
        first_name: '',
        last_name: '',
        nice_name: `liker${i}`,
        url: '',
        avatar_url: `https://example.com/avatar/${i}`,
      })),
    )
    .execute();
  await db
    .insertInto('likes')
    .values(
      Array.from({ length: LIKERS }, (_, i) => ({
        post_id: 108,
        user_id: 80_000 + i,
        date: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString(),
      })),
    )
    .execute();
});
afterAll(() => harness?.close());

const get = async (path: string) => {
  const res = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/108${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('meta=likes,replies', () => {
  it('loads the first 20 of each, newest first, with found counting all', async () => {
    const { status, body } = await read(harness, undefined, 1, 108, { meta: 'likes,replies' });
    expect(status).toBe(200);
    const { likes, replies } = body.meta.data;
    expect(replies.found).toBeGreaterThanOrEqual(COMMENTS);
    expect(replies.comments).toHaveLength(20);
    expect(replies.comments[0].ID).toBe(90_000 + COMMENTS - 1);
    expect(likes.found).toBeGreaterThanOrEqual(LIKERS);
    expect(likes.likes).toHaveLength(20);
    expect(likes.likes[0].ID).toBe(80_000 + LIKERS - 1);
  });
});

describe('the likes and replies links', () => {
  it('answer 20 by default and up to number=100', async () => {
    expect((await get('/replies')).body.comments).toHaveLength(20);
    expect((await get('/replies?number=100')).body.comments).toHaveLength(100);
    expect((await get('/replies?number=5')).body.comments.map((c: { ID: number }) => c.ID)).toEqual(
      [1, 2, 3, 4, 5].map((n) => 90_000 + COMMENTS - n),
    );
    expect((await get('/likes?number=100')).body.likes.length).toBeGreaterThanOrEqual(LIKERS);
    expect((await get('/likes')).body.likes).toHaveLength(20);
  });

  it('refuse a number above 100 in the v1.1 error format', async () => {
    const { status, body } = await get('/replies?number=101');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_input', message: expect.stringMatching(/number/) });
  });
});

describe('an answer larger than MAX_ANSWER_BYTES', () => {
  it('is refused with 400 in each service’s error format, and smaller ones pass', async () => {
    // Both services: the profiles' answer (`/v3/openapi`) is refused in its own format.
    const small = await startPublishing({ MAX_ANSWER_BYTES: '3000', SERVICES: 'profiles,publishing' });
    try {
      const big = await small.call(`${small.server.url}/rest/v1.1/sites/1/posts/108?meta=site,likes,replies&pretty=1`);
      expect(big.status).toBe(400);
      expect(await big.json()).toEqual({
        error: 'invalid_input',
        message: 'The answer would be larger than 3000 bytes; ask for less (fields, meta, number)',
      });
      const jsonp = await small.call(
        `${small.server.url}/rest/v1.1/sites/1/posts/108?meta=site,likes,replies&pretty=1&callback=cb`,
      );
      expect(jsonp.status).toBe(400);
      expect(await jsonp.text()).toMatch(/^\/\*\*\/cb\(\{\s*"error": "invalid_input"/);
      const fewer = await small.call(`${small.server.url}/rest/v1.1/sites/1/posts/108?fields=ID,status`);
      expect(fewer.status).toBe(200);
      const docs = await small.call(`${small.server.url}/v3/openapi`);
      expect(docs.status).toBe(400);
      expect(await docs.json()).toMatchObject({ code: 'invalid_request' });
    } finally {
      await small.close();
    }
  });
});
