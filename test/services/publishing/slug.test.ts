import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPostBySlug } from '../../../generated/publishing/sdk.gen.js';
import { insertPosts, postRow, read, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

/** Reads a post by slug through the generated SDK (contract-checked). */
async function bySlug(
  token: string | undefined,
  slug: string,
  query: Record<string, string> = {},
  site = 'demo.example.com',
) {
  const result = await getPostBySlug({
    client: harness.client,
    path: { site, post_slug: slug },
    query,
    ...(token ? { auth: token } : {}),
  });
  return { status: result.response.status, body: (result.data ?? result.error) as Record<string, any> };
}

describe('GET /sites/{site}/posts/slug:{post_slug}', () => {
  it('answers the published post with that slug, as the read by ID does', async () => {
    const { status, body } = await bySlug(undefined, 'welcome-to-the-demo-site');
    expect(status).toBe(200);
    expect(body).toEqual((await read(harness, undefined, 1, 108)).body);
  });

  it('finds a page, takes a trailing slash, and makes the value a slug first', async () => {
    expect((await bySlug(undefined, 'about', { fields: 'ID,type' })).body).toEqual({ ID: 112, type: 'page' });
    const response = await harness.call(
      `${harness.server.url}/rest/v1.1/sites/1/posts/slug:Welcome%20To%20The-Demo-Site/?fields=ID`,
    );
    expect(await response.json()).toEqual({ ID: 108 });
  });

  it('does not route a slug path to the read by ID, nor an ID to the slug read', async () => {
    expect((await bySlug(undefined, '108')).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    const byId = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/108?fields=slug`);
    expect(await byId.json()).toEqual({ slug: 'welcome-to-the-demo-site' });
  });

  it('looks among published posts only, as the platform does', async () => {
    // 101 is in the trash (slug `the-harbours-first-light__trashed`); its original slug names no published post.
    expect((await bySlug(admin, 'the-harbours-first-light')).status).toBe(404);
    await insertPosts(harness, [postRow({ id: 4001, slug: 'a-draft', status: 'draft' })]);
    expect((await bySlug(admin, 'a-draft')).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
  });

  it('applies the read rules (a password-protected post, context=edit)', async () => {
    await insertPosts(harness, [postRow({ id: 4002, slug: 'locked', password: 'secret' })]);
    expect((await bySlug(undefined, 'locked')).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot view password protected post',
    });
    expect((await bySlug(admin, 'locked', { fields: 'ID,password' })).body).toEqual({ ID: 4002, password: 'secret' });
    expect((await bySlug(await harness.tokenFor('subscriber'), 'about', { context: 'edit' })).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot edit post',
    });
  });

  it('answers bad input in the service\u2019s own format', async () => {
    expect(await bySlug(undefined, '%%%')).toEqual({
      status: 400,
      body: { error: 'invalid_post', message: 'Invalid post' },
    });
    expect((await bySlug(undefined, 'about', {}, 'nowhere.example.com')).body).toEqual({
      error: 'unknown_blog',
      message: 'Unknown blog',
    });
  });
});
