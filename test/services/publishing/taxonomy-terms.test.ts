import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { androidTerm, calypsoTerm } from '../../fixtures/client-bodies.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The taxonomy terms endpoints (`/sites/{site}/taxonomies/{taxonomy}/terms`,
 * `…/new`, `…/slug:{slug}`, its edit and `…/delete`: Jetpack's list-terms,
 * get-term and update-term endpoints) and the post-type taxonomies list,
 * with the requests the clients send: Android's FluxC `TaxonomyRestClient`
 * (`fetchTerms` with `number=1000`, `pushTerm` with `context=edit` and
 * `parent` as text, reading `ID`, `name`, `slug`, `description`, `parent`,
 * `post_count`), the web editor's (Calypso `state/terms/actions.js`,
 * wpcom.js `site.taxonomy.js`, `site.post-type.js`). Every answer goes
 * through the contract checker.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  // A role that may manage terms but has no unfiltered_html: its term names go through the HTML filter.
  await harness.server.built.db
    .insertInto('role_capabilities')
    .values(['read', 'edit_posts', 'manage_categories'].map((capability) => ({ role: 'term-keeper', capability })))
    .execute();
  await harness.server.built.db
    .updateTable('site_roles')
    .set({ role: 'term-keeper' })
    .where('site_id', '=', 1)
    .where('user_id', '=', 6)
    .execute();
  for (const login of ['admin', 'editor', 'author', 'moderator']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown) =>
  callJson(harness, method, `/rest/v1.1${path}`, login === undefined ? undefined : tokens[login], body);

/** What FluxC's `termResponseToTermModel` reads, with the types it parses them as. */
function expectFluxcTerm(term: Record<string, unknown>) {
  expect(typeof term.ID).toBe('number');
  expect(typeof term.name).toBe('string');
  expect(typeof term.slug).toBe('string');
  expect(typeof term.description).toBe('string');
  expect(typeof term.post_count).toBe('number');
}

describe('Android: FluxC TaxonomyRestClient', () => {
  it('fetchTerms: every category and tag under `terms`, with number=1000, the lists’ order and links', async () => {
    const categories = await api('GET', '/sites/1/taxonomies/category/terms?number=1000', 'author');
    expect(categories.status).toBe(200);
    expect(categories.body.found).toBe(4);
    expect(categories.body.categories).toBeUndefined();
    const served = await api('GET', '/sites/1/categories?number=1000', 'author');
    expect(categories.body.terms).toEqual(served.body.categories);
    for (const term of categories.body.terms) {
      expectFluxcTerm(term);
      expect(typeof term.parent).toBe('number');
    }
    const tags = await api('GET', '/sites/1/taxonomies/post_tag/terms?number=1000');
    expect(tags.status).toBe(200);
    expect(tags.body.terms).toEqual((await api('GET', '/sites/1/tags?number=1000')).body.tags);
    for (const term of tags.body.terms) {
      expectFluxcTerm(term);
      expect(term).not.toHaveProperty('parent');
    }
  });

  it('pushTerm: a new tag and a category under a parent with `parent` as text; a duplicate is 409, as the client expects', async () => {
    const tag = await api('POST', '/sites/1/taxonomies/post_tag/terms/new?context=edit', 'editor', androidTerm());
    expect(tag.status).toBe(200);
    expectFluxcTerm(tag.body);
    expect(tag.body).toMatchObject({ name: 'Ferries', slug: 'ferries', post_count: 0 });
    const child = await api(
      'POST',
      '/sites/1/taxonomies/category/terms/new?context=edit',
      'editor',
      androidTerm({ name: 'Quayside', parent: '4' }),
    );
    expect(child).toMatchObject({ status: 200, body: { name: 'Quayside', parent: 4 } });
    expect(
      await api('POST', '/sites/1/taxonomies/post_tag/terms/new?context=edit', 'editor', androidTerm()),
    ).toMatchObject({ status: 409, body: { error: 'duplicate', message: 'A taxonomy with that name already exists' } });
    const read = await api('GET', '/sites/1/taxonomies/post_tag/terms/slug:ferries', 'author');
    expect(read).toMatchObject({ status: 200, body: { ID: tag.body.ID, name: 'Ferries' } });
  });

  it('answers an unknown taxonomy 400 invalid_taxonomy (after the site), and rights as the platform', async () => {
    expect(await api('GET', '/sites/1/taxonomies/genre/terms?number=1000')).toMatchObject({
      status: 400,
      body: { error: 'invalid_taxonomy', message: 'The taxonomy does not exist' },
    });
    expect(await api('GET', '/sites/999/taxonomies/genre/terms')).toMatchObject({
      status: 404,
      body: { error: 'unknown_blog' },
    });
    expect(
      await api('POST', '/sites/1/taxonomies/post_tag/terms/new', 'author', androidTerm({ name: 'Gulls' })),
    ).toMatchObject({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit taxonomy' },
    });
    expect(
      await api('POST', '/sites/1/taxonomies/post_tag/terms/new', 'editor', androidTerm({ name: '' })),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', message: 'Unknown data passed' },
    });
    expect(await api('GET', '/sites/1/taxonomies/post_tag/terms/slug:no-such-tag')).toMatchObject({
      status: 404,
      body: { error: 'unknown_taxonomy' },
    });
  });
});

describe('web editor: Calypso state/terms/actions.js (wpcom.js site.taxonomy.js)', () => {
  it('edits a category: description set even when empty, the parent always (0 when not sent), the slug kept', async () => {
    const added = await api('POST', '/sites/1/taxonomies/category/terms/new', 'admin', calypsoTerm({ parent: 4 }));
    expect(added).toMatchObject({ status: 200, body: { name: 'Quay', slug: 'quay', parent: 4 } });
    const edited = await api(
      'POST',
      '/sites/1/taxonomies/category/terms/slug:quay',
      'admin',
      calypsoTerm({ name: 'Quay side', description: '', parent: 4 }),
    );
    expect(edited).toMatchObject({
      status: 200,
      body: { ID: added.body.ID, name: 'Quay side', slug: 'quay', description: '', parent: 4 },
    });
    // Without `parent` the platform's `wp_update_term` takes 0: the category moves to the top level.
    const moved = await api('POST', '/sites/1/taxonomies/category/terms/slug:quay', 'admin', { name: 'Quay' });
    expect(moved).toMatchObject({ status: 200, body: { name: 'Quay', description: '', parent: 0 } });
    expect(await api('POST', '/sites/1/taxonomies/category/terms/slug:quay', 'admin', {})).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', message: 'Invalid request input' },
    });
    expect(
      await api('POST', '/sites/1/taxonomies/category/terms/slug:quay', 'admin', calypsoTerm({ parent: 99999 })),
    ).toMatchObject({ status: 400, body: { error: 'missing_parent' } });
  });

  it('deletes a tag: `success` is the boolean true here; the term is gone', async () => {
    await api('POST', '/sites/1/taxonomies/post_tag/terms/new', 'admin', calypsoTerm({ name: 'Gone soon' }));
    const deleted = await api('POST', '/sites/1/taxonomies/post_tag/terms/slug:gone-soon/delete', 'admin');
    expect(deleted).toMatchObject({ status: 200, body: { slug: 'gone-soon', success: true } });
    expect((await api('GET', '/sites/1/taxonomies/post_tag/terms/slug:gone-soon')).status).toBe(404);
  });

  it('filters the name and description of a caller without unfiltered_html; an administrator’s description is kept', async () => {
    const markup = { name: 'Tide<img src=x onerror=alert(1)>', description: '<script>alert(2)</script>Low water' };
    const filtered = await api('POST', '/sites/1/taxonomies/post_tag/terms/new', 'moderator', calypsoTerm(markup));
    expect(filtered.status).toBe(200);
    expect(JSON.stringify([filtered.body.name, filtered.body.description])).not.toMatch(/<script|onerror/);
    const edited = await api('POST', `/sites/1/taxonomies/post_tag/terms/slug:${filtered.body.slug}`, 'moderator', {
      name: 'Ebb<svg onload=alert(3)>',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.name).not.toMatch(/<svg|onload/);
    const kept = await api(
      'POST',
      '/sites/1/taxonomies/post_tag/terms/new',
      'admin',
      calypsoTerm({ name: 'Neap <b>tide</b>', description: 'At <b>quarter</b> moon' }),
    );
    // A name keeps no tags for anyone (`pre_term_name`); an administrator's description is kept as sent.
    expect(kept.body).toMatchObject({ name: 'Neap tide', description: 'At <b>quarter</b> moon' });
  });

  it('site.post-type.js taxonomiesList: the taxonomies of posts with their labels, hierarchy and capabilities; pages have none', async () => {
    const { status, body } = await api('GET', '/sites/1/post-types/post/taxonomies');
    expect(status).toBe(200);
    expect(body.found).toBe(2);
    expect(body.taxonomies.map((taxonomy: { name: string }) => taxonomy.name)).toEqual(['category', 'post_tag']);
    expect(body.taxonomies[0]).toMatchObject({
      label: 'Categories',
      hierarchical: true,
      public: true,
      labels: { name: 'Categories', singular_name: 'Category', add_new_item: 'Add New Category' },
      capabilities: { edit_terms: 'edit_categories', assign_terms: 'assign_categories' },
    });
    expect(body.taxonomies[1]).toMatchObject({ label: 'Tags', hierarchical: false, labels: { parent_item: null } });
    expect(await api('GET', '/sites/1/post-types/page/taxonomies')).toMatchObject({
      status: 200,
      body: { found: 0, taxonomies: [] },
    });
    expect(await api('GET', '/sites/1/post-types/recipe/taxonomies')).toMatchObject({
      status: 404,
      body: { error: 'unknown_post_type' },
    });
  });
});
