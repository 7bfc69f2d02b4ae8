import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, restore, startPublishing, type PublishingTestServer } from './support.js';

/**
 * `GET /sites/{site}/posts/{post_ID}`: the post a `meta.links.self` names,
 * with the platform's rules on who may read what (published posts for
 * anyone, the rest by status and right), and the same post object as the
 * other operations answer.
 */
let harness: PublishingTestServer;
let tokens: Record<'admin' | 'editor' | 'author' | 'contributor' | 'subscriber' | 'moderator', string>;

beforeAll(async () => {
  // A site made private below applies at once: the instance remembers no site (site-cache.test.ts has the bound).
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  const logins = ['admin', 'editor', 'author', 'contributor', 'subscriber', 'moderator'] as const;
  tokens = Object.fromEntries(
    await Promise.all(logins.map(async (login) => [login, await harness.tokenFor(login)])),
  ) as typeof tokens;
});
afterAll(() => harness?.close());

describe('a published post', () => {
  it('is readable without a token, with no rights and no email', async () => {
    const { status, body } = await read(harness, undefined, 'demo.example.com', 108);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ID: 108,
      site_ID: 1,
      status: 'publish',
      sticky: true,
      i_like: false,
      is_following: false,
    });
    expect(body.capabilities).toEqual({ publish_post: false, delete_post: false, edit_post: false });
    expect(body.author.email).toBe(false);
    expect(body.meta.links.self).toBe(`${harness.server.config.publicUrl}/rest/v1.1/sites/1/posts/108`);
  });

  it('shows a reader with a token their own rights and view', async () => {
    const { body } = await read(harness, tokens.subscriber, 1, 108);
    expect(body.capabilities).toEqual({ publish_post: false, delete_post: false, edit_post: false });
    expect(body).toMatchObject({ i_like: true, is_following: true });
    const admin = await read(harness, tokens.admin, 1, 108);
    expect(admin.body.capabilities).toEqual({ publish_post: true, delete_post: true, edit_post: true });
  });

  it('hides protected metadata from a reader who may not edit it, and shows it to one who may', async () => {
    await harness.server.built.db
      .insertInto('post_meta')
      .values({ id: 590, post_id: 108, meta_key: '_secret', meta_value: '"x"' })
      .execute();
    const anonymous = await read(harness, undefined, 1, 108);
    expect(anonymous.body.metadata.map((entry: { key: string }) => entry.key)).toEqual(['mood']);
    const admin = await read(harness, tokens.admin, 1, 108);
    expect(admin.body.metadata.map((entry: { key: string }) => entry.key)).toEqual(['mood', '_secret']);
  });

  it('is answered with context=edit only to a caller who may edit it', async () => {
    const anonymous = await read(harness, undefined, 1, 108, { context: 'edit' });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ error: 'unauthorized', message: 'User cannot edit post' });
    const moderator = await read(harness, tokens.moderator, 1, 108, { context: 'edit' });
    expect(moderator.status).toBe(403);
    const admin = await read(harness, tokens.admin, 1, 108, { context: 'edit' });
    expect(admin.status).toBe(200);
    expect(admin.body.author.email).toBe('ada@demo.example.com');
  });

  it('loads what meta names', async () => {
    const { body } = await read(harness, undefined, 1, 108, { meta: 'site,likes' });
    expect(body.meta.data.site).toMatchObject({ ID: 1, name: 'Harbour Town Demo' });
    expect(body.meta.data.likes).toMatchObject({ found: 2, i_like: false, post_ID: 108 });
  });
});

describe('who may read a post that is not published', () => {
  it('a trashed post: only a caller who may edit it', async () => {
    expect((await read(harness, undefined, 1, 102)).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot view post',
    });
    expect((await read(harness, tokens.subscriber, 1, 102)).status).toBe(403);
    // The moderator may delete (so restore) any post, but not edit it, so not see it in the trash.
    expect((await read(harness, tokens.moderator, 1, 102)).status).toBe(403);
    const contributor = await read(harness, tokens.contributor, 1, 102);
    expect(contributor.status).toBe(200);
    expect(contributor.body).toMatchObject({ ID: 102, status: 'trash', slug: 'notes-from-the-market__trashed' });
  });

  it('a draft, pending or scheduled post: only a caller who may edit it', async () => {
    for (const [postId, status] of [
      [102, 'draft'],
      [103, 'pending'],
      [105, 'future'],
    ] as const) {
      await restore(harness, tokens.admin, 1, postId);
      expect((await read(harness, undefined, 1, postId)).status).toBe(403);
      expect((await read(harness, tokens.subscriber, 1, postId)).status).toBe(403);
      expect((await read(harness, tokens.editor, 1, postId)).body).toMatchObject({ ID: postId, status });
    }
    // The contributor wrote the draft, so may edit it; the pending post is the admin's.
    expect((await read(harness, tokens.contributor, 1, 102)).status).toBe(200);
    expect((await read(harness, tokens.contributor, 1, 103)).status).toBe(403);
  });

  it('a private post: its author, and callers who may read private posts', async () => {
    await restore(harness, tokens.admin, 1, 104);
    expect((await read(harness, undefined, 1, 104)).status).toBe(403);
    expect((await read(harness, tokens.author, 1, 104)).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot view post',
    });
    expect((await read(harness, tokens.editor, 1, 104)).body).toMatchObject({ ID: 104, status: 'private' });
    expect((await read(harness, tokens.admin, 1, 104)).status).toBe(200);
  });

  it('a password-protected post: only a caller who may edit it', async () => {
    await harness.server.built.db.updateTable('posts').set({ password: 'harbour' }).where('id', '=', 112).execute();
    const anonymous = await read(harness, undefined, 1, 112);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ error: 'unauthorized', message: 'User cannot view password protected post' });
    expect((await read(harness, tokens.subscriber, 1, 112)).status).toBe(403);
    expect((await read(harness, tokens.admin, 1, 112)).body).toMatchObject({ ID: 112, password: 'harbour' });
    await harness.server.built.db.updateTable('posts').set({ password: '' }).where('id', '=', 112).execute();
  });
});

describe('a private site', () => {
  it('is readable only by its users', async () => {
    await harness.server.built.db.updateTable('sites').set({ is_private: 1 }).where('id', '=', 2).execute();
    await restore(harness, tokens.admin, 'demo.example.com::blog', 120);
    const anonymous = await read(harness, undefined, 2, 120);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ error: 'unauthorized', message: 'User cannot access this private blog.' });
    expect((await read(harness, tokens.subscriber, 2, 120)).status).toBe(403);
    expect((await read(harness, tokens.admin, 2, 120)).body).toMatchObject({ ID: 120, site_ID: 2 });
    await harness.server.built.db.updateTable('sites').set({ is_private: 0 }).where('id', '=', 2).execute();
  });
});

describe('what does not exist', () => {
  it('an unknown site is 404 unknown_blog, an unknown post or a type the site does not expose 404 unknown_post', async () => {
    expect((await read(harness, undefined, 'nowhere.example.com', 108)).body).toEqual({
      error: 'unknown_blog',
      message: 'Unknown blog',
    });
    expect((await read(harness, undefined, 1, 999)).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    expect((await read(harness, tokens.admin, 1, 110)).body).toEqual({
      error: 'unknown_post',
      message: 'Unknown post',
    });
    // A post of another site is not on this one.
    expect((await read(harness, tokens.admin, 2, 108)).status).toBe(404);
  });
});

describe('tokens', () => {
  it('an unknown token is refused even though reading needs none', async () => {
    const { status, body, response } = await read(harness, 'not-a-token', 1, 108);
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_token');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});

describe('the same post object as the other operations', () => {
  it('reading a post right after restoring it gives the restore answer, in both contexts', async () => {
    for (const context of ['display', 'edit'] as const) {
      const restored = await restore(harness, tokens.admin, 1, 107, { context, meta: 'site' });
      const again = await read(harness, tokens.admin, 1, 107, { context, meta: 'site' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(restored.body);
    }
  });
});
