import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, trash, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

/** The counts as `token` sees them (contract-checked). */
async function counts(token: string | undefined, type = 'post', query = '') {
  const response = await harness.call(
    `${harness.server.url}/rest/v1.1/sites/demo.example.com/post-counts/${type}${query}`,
    {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** What the counts table holds against a count of the posts themselves: equal after any writes. */
async function countsAgreeWithPosts() {
  const db = harness.server.built.db;
  const kept = await db
    .selectFrom('post_counts')
    .select(['site_id', 'type', 'status', 'author_id', 'n'])
    .where('n', '>', 0)
    .execute();
  const counted = await db
    .selectFrom('posts')
    .select((eb) => [
      'site_id',
      'type',
      'status',
      eb.fn.coalesce('author_id', eb.lit(0)).as('author_id'),
      eb.fn.countAll().as('n'),
    ])
    .groupBy(['site_id', 'type', 'status', 'author_id'])
    .execute();
  const key = (row: { site_id: number; type: string; status: string; author_id: number | null; n: unknown }) =>
    `${row.site_id}/${row.type}/${row.status}/${row.author_id ?? 0}=${Number(row.n)}`;
  expect(kept.map(key).sort()).toEqual(counted.map(key).sort());
}

describe('the counts per status, for all and for the caller', () => {
  it('needs a token (403 authorization_required, as on the platform)', async () => {
    expect(await counts(undefined)).toEqual({
      status: 403,
      body: {
        error: 'authorization_required',
        message: 'An active access token must be used to retrieve post counts.',
      },
    });
  });

  it('answers an administrator every status with posts, and their own', async () => {
    expect(await counts(admin)).toEqual({
      status: 200,
      body: { counts: { all: { publish: 1, trash: 8 }, mine: { publish: 1, trash: 5 } } },
    });
    expect((await counts(admin, 'page')).body).toEqual({
      counts: { all: { publish: 1, trash: 1 }, mine: { publish: 1, trash: 1 } },
    });
    expect((await counts(admin, 'post', '?author=4')).body.counts.author).toEqual({ trash: 2 });
  });

  it('answers a contributor every status, and a subscriber only published posts', async () => {
    expect((await counts(await harness.tokenFor('contributor'))).body).toEqual({
      counts: { all: { publish: 1, trash: 8 }, mine: { trash: 2 } },
    });
    expect((await counts(await harness.tokenFor('subscriber'))).body).toEqual({
      counts: { all: { publish: 1 }, mine: {} },
    });
  });

  it('refuses a type the site does not expose, and an unknown site', async () => {
    expect(await counts(admin, 'feedback')).toEqual({
      status: 404,
      body: { error: 'unknown_post_type', message: 'Unknown post type requested.' },
    });
    const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/nowhere.example.com/post-counts/post`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(await response.json()).toEqual({ error: 'unknown_blog', message: 'Unknown blog' });
  });
});

describe('counts kept as posts are written, never counted from the posts on a read', () => {
  it('follow trash, restore and deletion for good', async () => {
    await trash(harness, admin, 1, 108);
    expect((await counts(admin)).body.counts.all).toEqual({ trash: 9 });
    await restore(harness, admin, 1, 108);
    expect((await counts(admin)).body.counts.all).toEqual({ publish: 1, trash: 8 });
    // 113 is in the trash: this deletes it for good.
    await trash(harness, admin, 1, 113);
    expect((await counts(admin)).body.counts.all).toEqual({ publish: 1, trash: 7 });
    await countsAgreeWithPosts();
  });

  it('are read from the counts the store keeps', async () => {
    const db = harness.server.built.db;
    await db
      .updateTable('post_counts')
      .set((eb) => ({ n: eb('n', '+', 100) }))
      .where('site_id', '=', 1)
      .where('type', '=', 'post')
      .where('status', '=', 'publish')
      .execute();
    expect((await counts(admin)).body.counts.all.publish).toBe(101);
    await db
      .updateTable('post_counts')
      .set((eb) => ({ n: eb('n', '-', 100) }))
      .where('site_id', '=', 1)
      .where('type', '=', 'post')
      .where('status', '=', 'publish')
      .execute();
  });

  it('stay right under concurrent trashes and restores moving posts both ways', async () => {
    const restoring = [101, 102, 103, 104, 105, 107, 109];
    await Promise.all([
      ...restoring.map((id) => restore(harness, admin, 1, id)),
      trash(harness, admin, 1, 108),
      trash(harness, admin, 1, 112),
    ]);
    await Promise.all([
      ...restoring.map((id) => trash(harness, admin, 1, id)),
      restore(harness, admin, 1, 108),
      restore(harness, admin, 1, 112),
    ]);
    await countsAgreeWithPosts();
  });
});
