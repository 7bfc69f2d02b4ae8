import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The links in a post object's `meta.links` resolve: `self` (the read
 * operation), `site`, `likes` and `replies` answer what `meta=` loads into
 * `meta.data`, with the read operation's rules on who may see them. `help`
 * is not served. Every answer goes through the contract checker.
 */
let harness: PublishingTestServer;
let admin: string;
/** A post restored by the admin, with what `meta` loaded from its links. */
let restored: Record<string, any>;

beforeAll(async () => {
  // A site made private below applies at once: the instance remembers no site (site-cache.test.ts has the bound).
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  admin = await harness.tokenFor('admin');
  restored = (await restore(harness, admin, 'demo.example.com', 101, { meta: 'site,likes,replies' })).body;
});
afterAll(() => harness?.close());

/** Follows an absolute API link on this server (links are built on PUBLIC_URL), as `token` if given. */
async function follow(link: string, token?: string) {
  const { pathname, search } = new URL(link);
  const res = await harness.call(
    `${harness.server.url}${pathname}${search}`,
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

describe('meta.links of a restored post', () => {
  it('self answers the post itself', async () => {
    const { status, body } = await follow(restored.meta.links.self, admin);
    expect(status).toBe(200);
    const { meta: _meta, ...post } = body!;
    const { meta: _restoredMeta, ...restoredPost } = restored;
    expect(post).toEqual(restoredPost);
  });

  it.each(['site', 'likes', 'replies'] as const)(
    'the %s link answers what meta loads under that name, also without a token',
    async (name) => {
      const asAdmin = await follow(restored.meta.links[name], admin);
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body).toEqual(restored.meta.data[name]);
      const anonymous = await follow(restored.meta.links[name]);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toMatchObject({ [name === 'site' ? 'ID' : 'site_ID']: 1 });
    },
  );

  it('likes and replies list the post’s likers and approved comments', async () => {
    expect((await follow(restored.meta.links.likes)).body).toMatchObject({ found: 3, i_like: false, post_ID: 101 });
    const replies = (await follow(restored.meta.links.replies)).body!;
    expect(replies.comments.map((comment: { ID: number }) => comment.ID)).toEqual([602, 601]);
  });

  it('help is not served: the endpoint layer’s empty 404', async () => {
    const { status, text } = await follow(restored.meta.links.help);
    expect(status).toBe(404);
    expect(text).toBe('');
  });

  it('fields does not apply to the likes and replies lists', async () => {
    const { body } = await follow(`${restored.meta.links.likes}?fields=ID`);
    expect(body).toMatchObject({ found: 3, post_ID: 101 });
  });
});

describe('who may follow them', () => {
  it('the likes and replies of a post the caller may not read are 403; of an unknown post 404', async () => {
    const api = `${harness.server.url}/rest/v1.1/sites/1/posts`;
    for (const link of ['likes', 'replies']) {
      expect((await follow(`${api}/102/${link}/`)).body).toEqual({
        error: 'unauthorized',
        message: 'User cannot view post',
      });
      expect((await follow(`${api}/102/${link}`, admin)).status).toBe(200);
      expect((await follow(`${api}/999/${link}`)).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
    }
  });

  it('a private site answers only its users; an unknown site is 404', async () => {
    await harness.server.built.db.updateTable('sites').set({ is_private: 1 }).where('id', '=', 2).execute();
    const site = `${harness.server.url}/rest/v1.1/sites/2`;
    expect((await follow(site)).body).toEqual({
      error: 'unauthorized',
      message: 'User cannot access this private blog.',
    });
    expect((await follow(site, admin)).body).toMatchObject({ ID: 2, is_private: true });
    expect((await follow(`${harness.server.url}/rest/v1.1/sites/nowhere.example.com`)).body?.error).toBe(
      'unknown_blog',
    );
    await harness.server.built.db.updateTable('sites').set({ is_private: 0 }).where('id', '=', 2).execute();
  });
});
