import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(() => harness?.close());

/** The post as stored, to prove that a refused call changed nothing. */
const stored = async (postId: number, siteId = 1) => harness.store.findPost(siteId, postId);

describe('authentication comes first, before any lookup', () => {
  it('answers 401 authorization_required with WWW-Authenticate: Bearer, no error parameter, without a token', async () => {
    const { status, body, response } = await restore(harness, undefined, 1, 101);
    expect(status).toBe(401);
    expect(body).toEqual({
      error: 'authorization_required',
      message: 'An active access token must be used to access this endpoint.',
    });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 401 invalid_token with WWW-Authenticate: Bearer error="invalid_token" for a token it does not know (RFC 6750 §3)', async () => {
    const { status, body, response } = await restore(harness, 'not-a-token-we-issued', 1, 101);
    expect(status).toBe(401);
    expect(body).toEqual({ error: 'invalid_token', message: 'The OAuth2 token is invalid.' });
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('answers 401, not 404, for an unknown site or post, so a stranger learns nothing about what exists', async () => {
    expect((await restore(harness, undefined, 'nowhere.example', 101)).body.error).toBe('authorization_required');
    expect((await restore(harness, 'bogus', 'nowhere.example', 101)).body.error).toBe('invalid_token');
    expect((await restore(harness, 'bogus', 1, 999_999)).body.error).toBe('invalid_token');
  });

  it('leaves the post in the trash', async () => {
    await restore(harness, undefined, 1, 101);
    await restore(harness, 'bogus', 1, 101);
    expect((await stored(101))?.status).toBe('trash');
  });
});

describe('then the site: 404 unknown_blog', () => {
  it('for an ID, a domain, or a sub-folder that no site has', async () => {
    const token = await harness.tokenFor('admin');
    for (const site of ['999', 'nowhere.example', 'demo.example.com::nope', '99999999999999']) {
      const { status, body } = await restore(harness, token, site, 101);
      expect({ site, status, body }).toEqual({
        site,
        status: 404,
        body: { error: 'unknown_blog', message: 'Unknown blog' },
      });
    }
  });

  it('before the post: an unknown site with an unknown post is still unknown_blog', async () => {
    const token = await harness.tokenFor('admin');
    expect((await restore(harness, token, 'nowhere.example', 999_999)).body.error).toBe('unknown_blog');
  });
});

describe('then the post: 404 unknown_post', () => {
  it('for a post that does not exist, or exists on another site', async () => {
    const token = await harness.tokenFor('admin');
    for (const [site, postId] of [
      [1, 999_999],
      [1, 120],
      ['demo.example.com::blog', 101],
      [1, 9_007_199_254_740_991],
    ] as const) {
      const { status, body } = await restore(harness, token, site, postId);
      expect({ site, postId, status, body }).toEqual({
        site,
        postId,
        status: 404,
        body: { error: 'unknown_post', message: 'Unknown post' },
      });
    }
  });

  it('for a post of a type the site does not expose, which stays in the trash', async () => {
    const token = await harness.tokenFor('admin');
    const { status, body } = await restore(harness, token, 1, 110);
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    expect((await stored(110))?.status).toBe('trash');
  });
});

describe('then the right to delete the post: 403 User cannot restore trashed posts', () => {
  const refused = { error: 'unauthorized', message: 'User cannot restore trashed posts' };

  it.each([
    ['a subscriber', 'subscriber', 101],
    ['a contributor, on their own post that was published before the trash', 'contributor', 109],
    ['an author, on someone else’s post', 'author', 103],
    ['a user with no role on the site', 'editor', 120],
  ])('refuses %s and changes nothing', async (_who, login, postId) => {
    const siteId = postId === 120 ? 2 : 1;
    const before = await stored(postId, siteId);
    const { status, body } = await restore(harness, await harness.tokenFor(login), siteId, postId);
    expect(status).toBe(403);
    expect(body).toEqual(refused);
    expect(await stored(postId, siteId)).toEqual(before);
  });

  it('comes before the context check: a subscriber asking for context=edit is refused the restore', async () => {
    const { body } = await restore(harness, await harness.tokenFor('subscriber'), 1, 101, { context: 'edit' });
    expect(body).toEqual(refused);
  });
});

describe('then, with context=edit, the right to edit it: 403 User cannot edit post', () => {
  it('refuses a caller who may delete but not edit the post, before any change', async () => {
    const before = await stored(104);
    const token = await harness.tokenFor('moderator');
    const { status, body } = await restore(harness, token, 1, 104, { context: 'edit' });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'unauthorized', message: 'User cannot edit post' });
    expect(await stored(104)).toEqual(before);
    expect(before?.status).toBe('trash');
  });

  it('lets the same caller restore it with context=display', async () => {
    const { status, body } = await restore(harness, await harness.tokenFor('moderator'), 1, 104);
    expect(status).toBe(200);
    expect(body.status).toBe('private');
  });
});
