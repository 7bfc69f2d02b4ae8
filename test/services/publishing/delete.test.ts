import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, restore, startPublishing, trash, type PublishingTestServer } from './support.js';

/**
 * `POST /sites/{site}/posts/{post_ID}/delete`: moves a post to the trash
 * (the same transition as the admin `posts trash`, so restoring undoes it),
 * and deletes a trashed post for good, as the platform's endpoint does. Every
 * permission check comes before any change.
 */
let harness: PublishingTestServer;
let admin: string;

beforeAll(async () => {
  harness = await startPublishing({ METRICS_TOKEN: 'delete-test-metrics-token' });
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const db = () => harness.server.built.db;
const rowOf = (id: number) => db().selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();

describe('trashing a post', () => {
  it('moves it to the trash as the platform does, and answers the trashed post', async () => {
    const { status, body } = await trash(harness, admin, 'demo.example.com', 108);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ID: 108,
      status: 'trash',
      slug: 'welcome-to-the-demo-site__trashed',
      URL: 'https://demo.example.com/2026/01/15/welcome-to-the-demo-site__trashed/',
    });
    const memory = await db().selectFrom('trash_meta').selectAll().where('post_id', '=', 108).executeTakeFirstOrThrow();
    expect(memory).toMatchObject({ previous_status: 'publish', original_slug: 'welcome-to-the-demo-site' });
    const comment = await db().selectFrom('comments').selectAll().where('id', '=', 607).executeTakeFirstOrThrow();
    expect(comment).toMatchObject({ status: 'post-trashed', status_before_trash: 'approved' });
  });

  it('is undone by restoring it, and reading it then shows it as before', async () => {
    const restored = await restore(harness, admin, 1, 108);
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'welcome-to-the-demo-site', sticky: true });
    const again = await read(harness, undefined, 1, 108);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'publish',
      slug: 'welcome-to-the-demo-site',
      discussion: { comment_count: 1 },
    });
  });

  it('answers with fields, envelope and context like every operation', async () => {
    const { status, body } = await trash(harness, admin, 1, 112, { fields: 'ID,status', http_envelope: true });
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, body: { ID: 112, status: 'trash' } });
    await restore(harness, admin, 1, 112);
  });
});

describe('deleting a trashed post for good', () => {
  it('answers the post as it was, with status deleted, and removes it with what belongs to it', async () => {
    const { status, body } = await trash(harness, admin, 1, 107);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ID: 107,
      status: 'deleted',
      slug: 'morning-at-the-harbour__trashed',
      attachment_count: 25,
    });
    expect(await rowOf(107)).toBeUndefined();
    for (const table of ['comments', 'post_meta', 'likes', 'revisions', 'post_terms', 'trash_meta'] as const) {
      expect(await db().selectFrom(table).selectAll().where('post_id', '=', 107).execute(), table).toEqual([]);
    }
    // Its attachments stay, unattached (the post had no parent).
    const attachments = await db()
      .selectFrom('attachments')
      .select(['id', 'post_id'])
      .where('id', '>=', 301)
      .where('id', '<=', 325)
      .execute();
    expect(attachments).toHaveLength(25);
    expect(attachments.every((row) => row.post_id === null)).toBe(true);
    expect((await read(harness, admin, 1, 107)).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    expect((await trash(harness, admin, 1, 107)).status).toBe(404);
  });

  it('moves the child pages of a deleted page up to its parent', async () => {
    await restore(harness, admin, 1, 106);
    expect((await trash(harness, admin, 1, 112)).body.status).toBe('trash');
    expect((await trash(harness, admin, 1, 112)).body.status).toBe('deleted');
    expect((await rowOf(106))?.parent_id).toBeNull();
    expect((await read(harness, undefined, 1, 106)).body).toMatchObject({
      parent: false,
      URL: 'https://demo.example.com/our-team/',
    });
  });

  it('of concurrent deletions, exactly one deletes it; the other finds it gone', async () => {
    const answers = await Promise.all([trash(harness, admin, 1, 104), trash(harness, admin, 1, 104)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 404]);
    expect(answers.find((answer) => answer.status === 200)?.body.status).toBe('deleted');
    expect(await rowOf(104)).toBeUndefined();
  });
});

describe('permissions, all before any change', () => {
  it('needs a token', async () => {
    const { status, body } = await trash(harness, undefined, 1, 101);
    expect(status).toBe(401);
    expect(body.error).toBe('authorization_required');
  });

  it('a caller who may not delete the post is 403, and nothing changes', async () => {
    for (const login of ['subscriber', 'contributor'] as const) {
      const { status, body } = await trash(harness, await harness.tokenFor(login), 1, 113);
      expect(status, login).toBe(403);
      expect(body).toEqual({ error: 'unauthorized', message: 'User cannot delete posts' });
    }
    expect(await rowOf(113)).toMatchObject({ status: 'trash' });
  });

  it('a caller who may delete but not see the trashed post (the moderator) cannot delete it for good', async () => {
    const { status, body } = await trash(harness, await harness.tokenFor('moderator'), 1, 113);
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'unauthorized', message: 'User cannot view post' });
    expect(await rowOf(113)).toMatchObject({ status: 'trash' });
  });

  it('the moderator may trash a published post', async () => {
    const { body } = await trash(harness, await harness.tokenFor('moderator'), 1, 108);
    expect(body).toMatchObject({ ID: 108, status: 'trash', capabilities: { delete_post: true, edit_post: false } });
    await restore(harness, admin, 1, 108);
  });

  it('context=edit by a caller who may not edit the post is 403, and nothing changes', async () => {
    const { status, body } = await trash(harness, await harness.tokenFor('moderator'), 1, 108, { context: 'edit' });
    expect(status).toBe(403);
    expect(body.message).toBe('User cannot edit post');
    expect(await rowOf(108)).toMatchObject({ status: 'publish' });
  });

  it('unknown site, unknown post, and a type the site does not expose', async () => {
    expect((await trash(harness, admin, 'nowhere.example.com', 108)).body.error).toBe('unknown_blog');
    expect((await trash(harness, admin, 1, 999)).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    expect((await trash(harness, admin, 1, 110)).body).toEqual({
      error: 'unknown_post_type',
      message: 'Unknown post type',
    });
    expect(await rowOf(110)).toMatchObject({ status: 'trash' });
  });
});

describe('metrics', () => {
  it('count each authorised trash request by what it did', async () => {
    const text = await (
      await fetch(`${harness.server.url}/metrics`, { headers: { Authorization: 'Bearer delete-test-metrics-token' } })
    ).text();
    expect(text).toMatch(/^post_deletions_total\{outcome="trashed"\} [1-9]/m);
    expect(text).toMatch(/^post_deletions_total\{outcome="deleted"\} [1-9]/m);
  });
});
