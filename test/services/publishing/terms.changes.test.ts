import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Editing and deleting a site's categories and tags (`POST
 * /sites/{site}/categories/slug:{slug}`, `.../delete`, and the same for
 * tags), as the platform's update-taxonomy endpoint answers them
 * (Jetpack's `class.wpcom-json-api-update-taxonomy-endpoint.php`, request
 * fields from its `request_format`), and what `wp_update_term` and
 * `wp_delete_term` do to the terms and posts around them. Every answer goes
 * through the contract checker.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown, version = 'v1.1') =>
  callJson(harness, method, `/rest/${version}${path}`, login === undefined ? undefined : tokens[login], body);

/** The IDs of a post's terms, as stored. */
const termsOf = async (postId: number) =>
  (
    await harness.server.built.db
      .selectFrom('post_terms')
      .select('term_id')
      .where('post_id', '=', postId)
      .orderBy('term_id')
      .execute()
  ).map((row) => row.term_id);

const parentOf = async (slug: string) => (await harness.store.findTermBySlug(1, 'category', slug))?.parentId;

describe('term edits', () => {
  it('renames a category and changes its description; the slug stays, the answer is the term as its read gives it', async () => {
    const edited = await api('POST', '/sites/1/categories/slug:news', 'editor', {
      name: 'Harbour news',
      description: 'What happens on the quay.',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      ID: 3,
      name: 'Harbour news',
      slug: 'news',
      description: 'What happens on the quay.',
      parent: 0,
    });
    expect((await api('GET', '/sites/1/categories/slug:news')).body).toEqual(edited.body);
    expect((await api('GET', '/sites/1/categories/slug:harbour-news')).status).toBe(404);
  });

  it('leaves a field sent empty or 0 as it is (the endpoint tests each with empty()), and edits a tag without a parent', async () => {
    const unchanged = await api('POST', '/sites/1/categories/slug:harbour-walks', 'admin', {
      name: '',
      description: '0',
      parent: 0,
    });
    expect(unchanged).toMatchObject({
      status: 200,
      body: { ID: 5, name: 'Harbour walks', description: '', parent: 4 },
    });
    const tag = await api('POST', '/sites/1/tags/slug:dawn', 'editor', { name: 'Dawn light', parent: 3 });
    expect(tag).toMatchObject({ status: 200, body: { ID: 14, name: 'Dawn light', slug: 'dawn' } });
    expect(tag.body).not.toHaveProperty('parent');
    expect((await harness.store.findTermBySlug(1, 'post_tag', 'dawn'))?.parentId).toBe(0);
  });

  it('moves a category under another; under itself or one below it, to the top (wp_check_term_hierarchy_for_loops)', async () => {
    expect((await api('POST', '/sites/1/categories/slug:harbour-walks', 'editor', { parent: 3 })).body).toMatchObject({
      parent: 3,
    });
    const top = await api('POST', '/sites/1/categories/new', 'editor', { name: 'Coast' });
    const middle = await api('POST', '/sites/1/categories/new', 'editor', { name: 'Cliffs', parent: top.body.ID });
    const bottom = await api('POST', '/sites/1/categories/new', 'editor', { name: 'Caves', parent: middle.body.ID });
    expect(await api('POST', '/sites/1/categories/slug:cliffs', 'editor', { parent: bottom.body.ID })).toMatchObject({
      status: 200,
      body: { parent: 0 },
    });
    expect(await api('POST', '/sites/1/categories/slug:caves', 'editor', { parent: bottom.body.ID })).toMatchObject({
      status: 200,
      body: { parent: 0 },
    });
    expect(await parentOf('coast')).toBe(0);
  });

  it('answers the platform errors: the right before the term, then the body', async () => {
    // An author may not edit terms: 403 whether the term exists or not (the endpoint checks the right first).
    for (const slug of ['news', 'no-such-term']) {
      expect(await api('POST', `/sites/1/categories/slug:${slug}`, 'author', { name: 'Gulls' })).toMatchObject({
        status: 403,
        body: { error: 'unauthorized', message: 'User cannot edit taxonomy' },
      });
    }
    expect(await api('POST', '/sites/1/tags/slug:no-such-term', 'editor', { name: 'Gulls' })).toMatchObject({
      status: 404,
      body: { error: 'unknown_taxonomy', message: 'Unknown taxonomy' },
    });
    // A category's slug is no tag's.
    expect(await api('POST', '/sites/1/tags/slug:photography', 'editor', { name: 'Gulls' })).toMatchObject({
      status: 404,
    });
    for (const body of [{}, { slug: 'gulls' }]) {
      expect(await api('POST', '/sites/1/tags/slug:boats', 'editor', body)).toMatchObject({
        status: 400,
        body: { error: 'invalid_input', message: 'Invalid request input' },
      });
    }
    expect(await api('POST', '/sites/1/categories/slug:photography', 'editor', { parent: 99999 })).toMatchObject({
      status: 400,
      body: { error: 'missing_parent', message: 'Parent term does not exist.' },
    });
    // A tag's ID is no category.
    expect(await api('POST', '/sites/1/categories/slug:photography', 'editor', { parent: 12 })).toMatchObject({
      status: 400,
      body: { error: 'missing_parent' },
    });
    expect(await api('POST', '/sites/1/categories/slug:photography', 'editor', { name: '   ' })).toMatchObject({
      status: 400,
      body: { error: 'empty_term_name' },
    });
    expect(await api('POST', '/sites/1/categories/slug:photography', undefined, { name: 'Gulls' })).toMatchObject({
      status: 401,
      body: { error: 'authorization_required' },
    });
    expect((await harness.store.findTermBySlug(1, 'category', 'photography'))?.name).toBe('Photography');
  });

  it('is not served under REST v1.2, as the platform serves its term endpoints up to v1.1 only', async () => {
    const v12 = await api('POST', '/sites/1/categories/slug:photography', 'editor', { name: 'Gulls' }, 'v1.2');
    expect(v12.status).toBe(404);
    expect((await api('POST', '/sites/1/tags/slug:boats/delete', 'editor', undefined, 'v1.2')).status).toBe(404);
  });
});

describe('term deletions', () => {
  it('deletes a category: its posts left without one get the default, the categories below move up to its parent', async () => {
    // Post 107 has Photography (4) and Harbour walks (5); Photography's child is Harbour walks (moved under News above, so add one).
    const child = await api('POST', '/sites/1/categories/new', 'editor', { name: 'Portraits', parent: 4 });
    const deleted = await api('POST', '/sites/1/categories/slug:photography/delete', 'editor');
    expect(deleted).toMatchObject({ status: 200, body: { slug: 'photography', success: 'true' } });
    expect((await api('GET', '/sites/1/categories/slug:photography')).status).toBe(404);
    expect(await parentOf('portraits')).toBe(0);
    expect(child.body.parent).toBe(4);
    // 107 keeps Harbour walks: no default category for it.
    expect(await termsOf(107)).toEqual([5, 12, 13, 14, 20]);

    // News (3) is the only category of posts 101, 105, 108 and 113: each gets Uncategorized (1); their tags stay.
    const underNews = await api('POST', '/sites/1/categories/new', 'editor', { name: 'Ferries', parent: 3 });
    expect((await api('POST', '/sites/1/categories/slug:news/delete', 'admin')).body).toEqual({
      slug: 'news',
      success: 'true',
    });
    expect(await termsOf(101)).toEqual([1, 12]);
    expect(await termsOf(108)).toEqual([1, 12, 15]);
    expect(await termsOf(113)).toEqual([1]);
    expect(await parentOf('ferries')).toBe(0);
    expect(underNews.body.parent).toBe(3);
    // Harbour walks had been moved under News: it moves up to News's parent, the top.
    expect(await parentOf('harbour-walks')).toBe(0);
    expect(
      (await api('GET', '/sites/1/categories?number=1000')).body.categories.find(
        (c: { slug: string }) => c.slug === 'uncategorized',
      ).post_count,
    ).toBe(1);
  });

  it('deletes a tag: its posts lose it and get no other', async () => {
    expect(await api('POST', '/sites/1/tags/slug:dawn/delete', 'editor')).toMatchObject({
      status: 200,
      body: { slug: 'dawn', success: 'true' },
    });
    expect(await termsOf(107)).toEqual([5, 12, 13, 20]);
    expect(await harness.store.findTermBySlug(1, 'post_tag', 'dawn')).toBeUndefined();
  });

  it('refuses the default category, callers who may not edit terms (before the lookup), unknown terms', async () => {
    expect(await api('POST', '/sites/1/categories/slug:uncategorized/delete', 'admin')).toMatchObject({
      status: 403,
      body: { error: 'unauthorized', message: 'The default category cannot be deleted' },
    });
    expect(await harness.store.findTermBySlug(1, 'category', 'uncategorized')).toBeDefined();
    for (const slug of ['boats', 'no-such-term']) {
      expect(await api('POST', `/sites/1/tags/slug:${slug}/delete`, 'author')).toMatchObject({
        status: 403,
        body: { error: 'unauthorized', message: 'User cannot edit taxonomy' },
      });
    }
    expect(await api('POST', '/sites/1/tags/slug:no-such-term/delete', 'editor')).toMatchObject({
      status: 404,
      body: { error: 'unknown_taxonomy' },
    });
    expect(await api('POST', '/sites/1/tags/slug:boats/delete')).toMatchObject({ status: 401 });
    // Site 2's Uncategorized is its own default.
    expect(
      await api('POST', '/sites/demo.example.com%3A%3Ablog/categories/slug:uncategorized/delete', 'admin'),
    ).toMatchObject({ status: 403 });
    expect(await harness.store.findTermBySlug(1, 'post_tag', 'boats')).toBeDefined();
  });
});
