import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/app.js';

/**
 * Trashed posts made for a fault scenario: copies of demo post 101 on site 1,
 * each in the trash (`<slug>-<id>__trashed`, remembered status `publish`)
 * with one comment hidden with it, so a restore has several rows to change.
 */
export async function createTrashedPosts(db: Kysely<Database>, ids: number[]): Promise<void> {
  const model = await db.selectFrom('posts').selectAll().where('id', '=', 101).executeTakeFirstOrThrow();
  await db
    .insertInto('posts')
    .values(ids.map((id) => ({ ...model, id, status: 'trash', slug: `fault-${id}__trashed`, featured_media_id: null })))
    .execute();
  await db
    .insertInto('trash_meta')
    .values(
      ids.map((id) => ({
        post_id: id,
        previous_status: 'publish',
        trashed_at: '2026-03-05T09:30:00.000Z',
        original_slug: `fault-${id}`,
      })),
    )
    .execute();
  await db
    .insertInto('comments')
    .values(
      ids.map((id) => ({
        id,
        post_id: id,
        parent_id: null,
        author_id: null,
        author_name: 'Visitor',
        author_email: 'visitor@example.com',
        author_url: '',
        date: '2026-03-05T09:00:00.000Z',
        content: 'Hidden with its post',
        status: 'post-trashed',
        status_before_trash: 'approved',
      })),
    )
    .execute();
}

/**
 * Checks that no restore was half-applied: each post is either wholly in
 * the trash (status, `__trashed` slug, trash memory, hidden comment) or
 * wholly restored (status `publish`, its own slug, no trash memory, comment
 * approved again). Answers how many are restored.
 */
export async function expectWhole(db: Kysely<Database>, ids: number[]): Promise<number> {
  const posts = await db.selectFrom('posts').select(['id', 'status', 'slug']).where('id', 'in', ids).execute();
  const memories = new Set(
    (await db.selectFrom('trash_meta').select('post_id').where('post_id', 'in', ids).execute()).map(
      (row) => row.post_id,
    ),
  );
  const comments = new Map(
    (await db.selectFrom('comments').select(['post_id', 'status']).where('id', 'in', ids).execute()).map((row) => [
      row.post_id,
      row.status,
    ]),
  );
  expect(posts).toHaveLength(ids.length);
  let restored = 0;
  for (const post of posts) {
    const state =
      post.status === 'trash'
        ? [post.slug === `fault-${post.id}__trashed`, memories.has(post.id), comments.get(post.id) === 'post-trashed']
        : [
            post.status === 'publish' && post.slug === `fault-${post.id}`,
            !memories.has(post.id),
            comments.get(post.id) === 'approved',
          ];
    expect({ id: post.id, whole: state.every(Boolean) }).toEqual({ id: post.id, whole: true });
    if (post.status !== 'trash') restored++;
  }
  return restored;
}

/** Retries `attempt` (every 100 ms, up to `ms`) until it answers 200; answers the last response. */
export async function until200(attempt: () => Promise<Response>, ms = 10_000): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await attempt().catch(() => undefined);
    if (res?.status === 200 || Date.now() > deadline) {
      if (!res) throw new Error('no answer');
      return res;
    }
    await res?.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `n` requests, `concurrency` at a time; answers each result in order. */
export async function bounded<T>(n: number, concurrency: number, request: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await request(i);
      }
    }),
  );
  return results;
}
