import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMyPostLike } from '../../../generated/publishing/sdk.gen.js';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * `GET /sites/{site}/posts/{post_ID}/likes/mine`: whether the caller likes a
 * post, and how many do (a like button). Called through the generated SDK;
 * every answer goes through the contract checker.
 */
let harness: PublishingTestServer;
let subscriber: string;
let editor: string;
beforeAll(async () => {
  harness = await startPublishing();
  subscriber = await harness.tokenFor('subscriber');
  editor = await harness.tokenFor('editor');
});
afterAll(() => harness.close());

async function mine(site: string, postId: number, token?: string, query: Record<string, string> = {}) {
  const result = await getMyPostLike({
    client: harness.client,
    path: { site, post_ID: postId },
    query,
    ...(token === undefined ? {} : { auth: token }),
  });
  return { status: result.response.status, body: (result.data ?? result.error) as Record<string, any> };
}

describe('whether I like a post', () => {
  it('says whether the caller likes it and how many do, with links to the site, the post and its likes', async () => {
    // Links are built on the deployment's public address (PUBLIC_URL).
    const base = `${harness.server.config.publicUrl}/rest/v1.1`;
    const api = `${base}/sites/1/posts/108`;
    expect(await mine('1', 108, subscriber)).toEqual({
      status: 200,
      body: {
        i_like: true,
        like_count: 2,
        site_ID: 1,
        post_ID: 108,
        meta: {
          links: {
            self: `${api}/likes/mine/`,
            help: `${api}/likes/mine/help`,
            site: `${base}/sites/1`,
            post: api,
            likes: `${api}/likes/`,
          },
        },
      },
    });
    // The editor does not like post 108; the site may be named by its domain.
    expect((await mine('demo.example.com', 108, editor)).body).toMatchObject({
      i_like: false,
      like_count: 2,
      site_ID: 1,
    });
  });

  it('follows the post: a like added is counted and mine', async () => {
    await harness.server.built.db
      .insertInto('likes')
      .values({ post_id: 108, user_id: 3, date: new Date().toISOString() })
      .execute();
    expect((await mine('1', 108, editor)).body).toMatchObject({ i_like: true, like_count: 3 });
  });

  it('needs a token: 403 authorization_required without one (the platform words it so), 401 for an unknown one', async () => {
    expect(await mine('1', 108)).toEqual({
      status: 403,
      body: { error: 'authorization_required', message: 'An active access token must be used to like a post.' },
    });
    const unknown = await mine('1', 108, 'not-a-token');
    expect([unknown.status, unknown.body.error]).toEqual([401, 'invalid_token']);
  });

  it('answers only about a post the caller may read; 404 for an unknown post or site', async () => {
    expect((await mine('1', 102, subscriber)).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot view post',
    });
    expect((await mine('1', 999, subscriber)).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    expect((await mine('nowhere.example.com', 108, subscriber)).body).toMatchObject({ error: 'unknown_blog' });
  });

  it('is presented like every v1.1 answer: envelope, JSONP, trailing slash', async () => {
    const enveloped = await mine('1', 108, undefined, { http_envelope: '1' });
    expect(enveloped.status).toBe(200);
    expect(enveloped.body).toMatchObject({ code: 403, body: { error: 'authorization_required' } });
    const url = `${harness.server.url}/rest/v1.1/sites/1/posts/108/likes/mine/?callback=likes`;
    const jsonp = await harness.call(url, { headers: { Authorization: `Bearer ${subscriber}` } });
    expect(await jsonp.text()).toMatch(/^\/\*\*\/likes\(\{"i_like":true,/);
  });
});
