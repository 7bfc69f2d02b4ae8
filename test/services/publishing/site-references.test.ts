import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedText } from '../../../src/services/publishing/domain/storedText.js';
import { callJson, list, postRow, read, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Issue 52, item 4: every ID a caller names (a featured image, a parent, a
 * term, an author) is resolved within the post's own site, by the flows
 * (which answer the caller) and by the store's writes and reads themselves
 * (`store/kysely/writes.ts` `inSite`, `setPostTerms`, the featured image's
 * reads), so no path can show or link another site's object.
 *
 * Site 2 (`demo.example.com::blog`) is the administrator's other site;
 * attachment 201 and the categories named below are site 1's.
 */

const BLOG = 'demo.example.com::blog';
let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const text = (value: string) => storedText('content', value, new Set(['unfiltered_html']));

describe('a featured image of another site', () => {
  it('named by `_thumbnail_id` metadata or by `featured_image` is none, on create and on edit', async () => {
    const created = await savePost(
      harness,
      admin,
      'new',
      {
        title: 'Borrowed',
        content: 'x',
        metadata: [{ key: '_thumbnail_id', value: '201' }],
      },
      { site: BLOG },
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ featured_image: '', post_thumbnail: null });
    const id = created.body.ID as number;
    const edited = await savePost(
      harness,
      admin,
      id,
      { metadata: [{ key: '_thumbnail_id', value: '201', operation: 'update' }] },
      { site: BLOG },
    );
    expect(edited.body).toMatchObject({ featured_image: '', post_thumbnail: null });
    const byField = await savePost(harness, admin, id, { featured_image: '201' }, { site: BLOG });
    expect(byField.body).toMatchObject({ featured_image: '', post_thumbnail: null });
    expect((await harness.store.findPost(2, id))?.featuredMediaId).toBeNull();
    // On its own site the same attachment is the featured image.
    const own = await savePost(harness, admin, 'new', {
      title: 'Own',
      content: 'x',
      metadata: [{ key: '_thumbnail_id', value: '201' }],
    });
    expect(own.body.post_thumbnail).toMatchObject({ ID: 201 });
  });

  it('is not written by the store, whoever asks it', async () => {
    const id = await harness.store.createPost(
      {
        ...postRow({ id: 0, site_id: 2 }),
        title: text('t'),
        content: text('c'),
        excerpt: text(''),
        featured_media_id: 201,
      },
      (newId) => `https://demo.example.com/?p=${newId}`,
    );
    expect((await harness.store.findPost(2, id))?.featuredMediaId).toBeNull();
    await harness.store.updatePost(id, { featured_media_id: 201 }, { authorId: 1, at: new Date().toISOString() });
    expect((await harness.store.findPost(2, id))?.featuredMediaId).toBeNull();
  });

  it('stored before (another site\u2019s ID in the row) is not shown: the single read and the list', async () => {
    const db = harness.server.built.db;
    await db
      .insertInto('posts')
      .values(postRow({ id: 9001, site_id: 2, featured_media_id: 201 }))
      .execute();
    const single = await read(harness, undefined, BLOG, 9001);
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ featured_image: '', post_thumbnail: null });
    const listed = await list(harness, undefined, BLOG, { number: 100 });
    const inList = (listed.body.posts as Record<string, unknown>[]).find((post) => post.ID === 9001);
    expect(inList).toMatchObject({ featured_image: '', post_thumbnail: null });
  });
});

describe('a parent of another site', () => {
  it('is refused by the write (400) and not written by the store', async () => {
    const page = await savePost(harness, admin, 'new', { title: 'Site one page', content: 'x', type: 'page' });
    const parentId = page.body.ID as number;
    const child = await savePost(
      harness,
      admin,
      'new',
      { title: 'Child', content: 'x', type: 'page', parent: parentId },
      { site: BLOG },
    );
    expect(child.status).toBe(400);
    const id = await harness.store.createPost(
      {
        ...postRow({ id: 0, site_id: 2, type: 'page', parent_id: parentId }),
        title: text('t'),
        content: text('c'),
        excerpt: text(''),
      },
      (newId) => `https://demo.example.com/?p=${newId}`,
    );
    expect((await harness.store.findPost(2, id))?.parentId).toBeNull();
    await harness.store.updatePost(id, { parent_id: parentId }, { authorId: 1, at: new Date().toISOString() });
    expect((await harness.store.findPost(2, id))?.parentId).toBeNull();
  });
});

describe('a term of another site', () => {
  it('named by ID is not given to the post, by the write or by the store', async () => {
    const [category] = await harness.store.findTerms(1, 'category', [], ['uncategorized']);
    expect(category).toBeDefined();
    const created = await callJson(harness, 'POST', `/rest/v1.2/sites/${encodeURIComponent(BLOG)}/posts/new`, admin, {
      title: 'Categorised',
      content: 'x',
      categories_by_id: [category!.id],
    });
    expect(created.status).toBe(200);
    expect(
      Object.values(created.body.categories as Record<string, { ID: number }>).map((term) => term.ID),
    ).not.toContain(category!.id);
    const id = created.body.ID as number;
    await harness.store.setPostTerms(id, 'category', [category!.id]);
    const relations = await harness.store.postRelations((await harness.store.findPost(2, id))!, {
      viewerId: 1,
      recentAttachments: 0,
      allAttachments: false,
      revisions: false,
    });
    expect(relations.terms.map((term) => term.id)).not.toContain(category!.id);
  });
});

describe('an author without a role on the post\u2019s site', () => {
  it('is refused (403), though the user exists on another site', async () => {
    const created = await savePost(
      harness,
      admin,
      'new',
      { title: 'By another', content: 'x', author: 2 },
      { site: BLOG },
    );
    expect(created).toMatchObject({ status: 403, body: { error: 'unauthorized' } });
  });
});
