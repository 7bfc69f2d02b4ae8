import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * `GET /sites/{site}/post-types`: what the posts screens read a type's labels
 * from (Calypso's `state/data-layer/wpcom/sites/post-types`: `GET
 * /sites/{site}/post-types`; WordPressKit's `PostServiceRemoteREST` reads
 * `post_types[].name` and `.labels`). Every answer goes through the contract checker.
 */
let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(() => harness?.close());

const get = async (path: string) => {
  const response = await harness.call(`${harness.server.url}/rest/v1.1${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('post types', () => {
  it('lists post, page and the site\u2019s extra types with their labels, capabilities and supports', async () => {
    const { status, body } = await get('/sites/demo.example.com/post-types?api_queryable=true');
    expect(status).toBe(200);
    expect(body.found).toBe(3);
    expect(body.post_types.map((type: { name: string }) => type.name)).toEqual(['post', 'page', 'jetpack-portfolio']);
    const [post, page, portfolio] = body.post_types;
    expect(Object.keys(post)).toEqual([
      'name',
      'label',
      'labels',
      'description',
      'map_meta_cap',
      'capabilities',
      'hierarchical',
      'public',
      'show_ui',
      'publicly_queryable',
      'api_queryable',
      'supports',
    ]);
    expect(post).toMatchObject({
      label: 'Posts',
      labels: {
        name: 'Posts',
        singular_name: 'Post',
        add_new_item: 'Add New Post',
        all_items: 'All Posts',
        not_found: 'No posts found.',
        parent_item_colon: null,
      },
      capabilities: { edit_posts: 'edit_posts', publish_posts: 'publish_posts', create_posts: 'edit_posts' },
      hierarchical: false,
      publicly_queryable: true,
      supports: { title: true, 'post-formats': true, tags: true },
    });
    expect(page).toMatchObject({
      label: 'Pages',
      labels: { singular_name: 'Page', parent_item_colon: 'Parent Page:' },
      capabilities: { edit_posts: 'edit_pages' },
      hierarchical: true,
      publicly_queryable: false,
      supports: { 'page-attributes': true },
    });
    expect(page.supports).not.toHaveProperty('tags');
    expect(portfolio).toMatchObject({
      label: 'Projects',
      labels: { add_new_item: 'Add New Project' },
      description: 'Portfolio Items',
    });
  });

  it('lists only post and page on a site without extra types, and is 404 unknown_blog for no site', async () => {
    expect((await get('/sites/demo.example.com%3A%3Ablog/post-types')).body).toMatchObject({ found: 2 });
    expect(await get('/sites/nowhere.example/post-types')).toMatchObject({
      status: 404,
      body: { error: 'unknown_blog' },
    });
  });
});
