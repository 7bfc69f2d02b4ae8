import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Slugs are unique per site and type (pages: per parent) for every status
 * that needs a unique slug, enforced by the database: many trashed posts that
 * all want the same slug, restored at once, each get a different one.
 */
const COPIES = 24;
const FIRST_ID = 70_000;
let harness: PublishingTestServer;

beforeAll(async () => {
  harness = await startPublishing();
  const db = harness.server.built.db;
  const model = await db.selectFrom('posts').selectAll().where('id', '=', 101).executeTakeFirstOrThrow();
  const ids = Array.from({ length: COPIES * 2 }, (_, i) => FIRST_ID + i);
  await db
    .insertInto('posts')
    .values(ids.map((id) => ({ ...model, id, status: 'trash', slug: 'same-slug__trashed', featured_media_id: null })))
    .execute();
  await db
    .insertInto('trash_meta')
    .values(
      ids.map((id) => ({
        post_id: id,
        previous_status: 'publish',
        trashed_at: '2026-03-05T09:30:00.000Z',
        original_slug: 'same-slug',
      })),
    )
    .execute();
});
afterAll(() => harness?.close());

const slugsOf = async (ids: number[]) =>
  (await harness.server.built.db.selectFrom('posts').select(['slug', 'status']).where('id', 'in', ids).execute()).map(
    (row) => {
      expect(row.status).toBe('publish');
      return row.slug;
    },
  );

const expectedSlugs = ['same-slug', ...Array.from({ length: COPIES - 1 }, (_, i) => `same-slug-${i + 2}`)];

describe('restoring many posts that want the same slug at once', () => {
  it('through the store gives each a different slug', async () => {
    const ids = Array.from({ length: COPIES }, (_, i) => FIRST_ID + i);
    const results = await Promise.all(ids.map((id) => harness.store.restorePost(id, new Date())));
    expect(results.every(Boolean)).toBe(true);
    expect(results).toHaveLength(COPIES);
    expect((await slugsOf(ids)).sort()).toEqual([...expectedSlugs].sort());
  });

  it('over HTTP gives each a different slug, each answer naming its own', async () => {
    const token = await harness.tokenFor('admin');
    const ids = Array.from({ length: COPIES }, (_, i) => FIRST_ID + COPIES + i);
    // A restore answered 503 (the store too busy, nothing changed) is sent again, as its Retry-After says.
    const restoreUntilDone = async (id: number) => {
      for (let attempt = 0; ; attempt++) {
        const answer = await restore(harness, token, 1, id);
        if (answer.status !== 503 || attempt >= 5) return answer;
        expect(answer.response.headers.get('retry-after')).toMatch(/^\d+$/);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const answers = await Promise.all(ids.map(restoreUntilDone));
    expect(answers.map((answer) => answer.status)).toEqual(Array(COPIES).fill(200));
    const answered = answers.map((answer) => answer.body.slug as string);
    expect(new Set(answered).size).toBe(COPIES);
    const stored = await slugsOf(ids);
    expect(stored.sort()).toEqual([...answered].sort());
    // The first batch holds same-slug … same-slug-24, so these continue after them.
    expect(stored.every((slug) => /^same-slug-(\d+)$/.test(slug) && Number(slug.slice(10)) > COPIES)).toBe(true);
  });
});

describe('the database itself', () => {
  it('refuses a second published post of the same type with a taken slug, but not a draft', async () => {
    const db = harness.server.built.db;
    const model = await db.selectFrom('posts').selectAll().where('id', '=', 101).executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('posts')
        .values({ ...model, id: FIRST_ID + 500, status: 'publish', slug: 'same-slug', featured_media_id: null })
        .execute(),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/) });
    await db
      .insertInto('posts')
      .values({ ...model, id: FIRST_ID + 501, status: 'draft', slug: 'same-slug', featured_media_id: null })
      .execute();
    await db
      .insertInto('posts')
      .values({
        ...model,
        id: FIRST_ID + 502,
        type: 'page',
        status: 'publish',
        slug: 'same-slug',
        featured_media_id: null,
      })
      .execute();
  });
});
