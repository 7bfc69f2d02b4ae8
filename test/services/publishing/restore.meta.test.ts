import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let editor: string;
let api: string;
beforeAll(async () => {
  harness = await startPublishing();
  editor = await harness.tokenFor('editor');
  api = `${harness.server.config.publicUrl}/rest/v1.1`;
});
afterAll(() => harness?.close());

describe('meta loads the named links into meta.data', () => {
  let data: Record<string, any>;
  beforeAll(async () => {
    const { status, body } = await restore(harness, editor, 1, 101, { meta: 'site, likes ,replies' });
    expect(status).toBe(200);
    data = body.meta.data;
  });

  it('site: the site as GET /sites/{ID} answers it, with the editor’s capabilities and the options', () => {
    const { capabilities, options, ...site } = data.site;
    expect(capabilities).toMatchObject({ edit_others_posts: true, moderate_comments: true, manage_options: false });
    expect(options).toMatchObject({ timezone: '', gmt_offset: 0, admin_url: 'https://demo.example.com/wp-admin/' });
    expect(site).toEqual({
      ID: 1,
      name: 'Harbour Town Demo',
      description: 'News and photos from the harbour',
      URL: 'https://demo.example.com',
      jetpack: false,
      jetpack_connection: false,
      post_count: 2,
      subscribers_count: 2,
      lang: 'en',
      visible: true,
      is_private: false,
      is_following: true,
      meta: {
        links: {
          self: `${api}/sites/1`,
          help: `${api}/sites/1/help`,
          posts: `${api}/sites/1/posts/`,
          comments: `${api}/sites/1/comments/`,
        },
      },
    });
  });

  it('likes: who likes the post, newest first, and whether the caller does', () => {
    expect(data.likes).toMatchObject({ found: 3, i_like: true, can_like: true, site_ID: 1, post_ID: 101 });
    expect(data.likes.likes.map((user: { login: string }) => user.login)).toEqual([
      'moderator',
      'subscriber',
      'editor',
    ]);
    expect(data.likes.likes.every((user: { email: unknown }) => user.email === false)).toBe(true);
  });

  it('replies: the approved comments, newest first (the spam one is not shown)', () => {
    expect(data.replies.found).toBe(2);
    expect(data.replies.comments.map((comment: { ID: number }) => comment.ID)).toEqual([602, 601]);
    expect(data.replies.comments[0]).toMatchObject({
      ID: 602,
      post: { ID: 101, type: 'post', link: `${api}/sites/1/posts/101` },
      author: { ID: 5, login: 'subscriber', email: false },
      date: '2026-03-02T13:00:00+00:00',
      content: '<p>Agreed, lovely light.</p>\n',
      status: 'approved',
      parent: { ID: 601, type: 'comment', link: `${api}/sites/1/comments/601` },
    });
    expect(data.replies.comments[1].author).toMatchObject({
      ID: 0,
      name: 'Lena Visitor',
      URL: 'https://lena.example',
      email: false,
    });
  });
});

describe('without meta, or with no loadable name', () => {
  it('meta holds the links only', async () => {
    for (const query of [{}, { meta: '' }, { meta: 'self,help,nonsense' }]) {
      const { body } = await restore(harness, editor, 1, 108, query);
      expect(Object.keys(body.meta)).toEqual(['links']);
    }
  });

  it('loads only the names asked for', async () => {
    const { body } = await restore(harness, editor, 1, 108, { meta: 'likes,likes' });
    expect(Object.keys(body.meta.data)).toEqual(['likes']);
    expect(body.meta.data.likes).toMatchObject({ found: 2, i_like: false });
  });
});
