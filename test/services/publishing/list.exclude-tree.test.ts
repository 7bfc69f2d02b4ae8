import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, list, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The list's `exclude_tree`: the post and every post below it are left out
 * when the list names one hierarchical type, as the platform's v1.1 list
 * endpoint does (`class.wpcom-json-api-list-posts-v1-1-endpoint.php`:
 * `is_post_type_hierarchical`, then `get_pages` with `child_of` over every
 * status); for another type, or `any`, it is ignored there and here.
 */
let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
  // Page 112 "About" is published; 950 below it, 951 (a draft) below 950; 952 stands alone; post 953 names 112 as parent but is no page.
  await insertPosts(harness, [
    postRow({ id: 950, type: 'page', parent_id: 112, slug: 'team' }),
    postRow({ id: 951, type: 'page', parent_id: 950, status: 'draft', slug: 'new-hires' }),
    postRow({ id: 952, type: 'page', slug: 'contact' }),
    postRow({ id: 953, type: 'post', parent_id: 112, slug: 'odd-one' }),
  ]);
});
afterAll(() => harness?.close());

const ids = (body: Record<string, unknown>) =>
  (body.posts as { ID: number }[]).map((post) => post.ID).sort((a, b) => a - b);

describe('exclude_tree', () => {
  it('leaves out the page and every page below it, of any status', async () => {
    const all = await list(harness, admin, 1, { type: 'page', status: 'publish,draft', number: 100 });
    expect(ids(all.body)).toEqual([112, 950, 951, 952]);
    const pruned = await list(harness, admin, 1, {
      type: 'page',
      status: 'publish,draft',
      number: 100,
      exclude_tree: 112,
    });
    expect(pruned.status).toBe(200);
    expect(ids(pruned.body)).toEqual([952]);
    expect(pruned.body.found).toBe(1);
    // A branch lower down, with `exclude` beside it.
    expect(
      ids(
        (await list(harness, admin, 1, { type: 'page', status: 'publish,draft', exclude_tree: 950, exclude: [952] }))
          .body,
      ),
    ).toEqual([112]);
  });

  it('is ignored for a type that is not hierarchical and for `any`, as on the platform', async () => {
    expect(ids((await list(harness, admin, 1, { type: 'post', number: 100, exclude_tree: 108 })).body)).toContain(108);
    const any = await list(harness, admin, 1, { type: 'any', number: 100, exclude_tree: 112 });
    expect(ids(any.body)).toEqual(expect.arrayContaining([112, 950, 952, 953]));
    // An ID no post has, or 0, leaves the list as it is.
    expect(
      ids((await list(harness, admin, 1, { type: 'page', status: 'publish,draft', exclude_tree: 0 })).body),
    ).toEqual([112, 950, 951, 952]);
  });
});
