import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * A site's categories and tags: the lists (`GET /sites/{site}/categories`,
 * `/tags`), the slug reads and `categories/new`, `tags/new`, with the
 * capability rules of the platform's taxonomy endpoints. Every answer goes
 * through the contract checker. The request shapes are the iOS app's
 * (WordPressKit `TaxonomyServiceRemoteREST.m`: lists with `context=edit` and
 * `number=1000`, `categories/new` with `name` and `parent`) and the web
 * editor's (Calypso's term selector: `tags?number=1000&search=`).
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author', 'subscriber']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown) =>
  callJson(harness, method, `/rest/v1.1${path}`, login === undefined ? undefined : tokens[login], body);

describe('term lists', () => {
  it('lists every category by name with post counts, parents and links (TaxonomyServiceRemoteREST: context=edit, number=1000)', async () => {
    const { status, body, headers } = await api(
      'GET',
      '/sites/demo.example.com/categories?context=edit&number=1000',
      'author',
    );
    expect(status).toBe(200);
    expect(headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(body.found).toBe(4);
    expect(body.categories.map((term: { name: string }) => term.name)).toEqual([
      'Harbour walks',
      'News',
      'Photography',
      'Uncategorized',
    ]);
    const walks = body.categories[0];
    expect(walks).toEqual({
      ID: 5,
      name: 'Harbour walks',
      slug: 'harbour-walks',
      description: '',
      post_count: 0,
      parent: 4,
      meta: {
        links: {
          self: `${harness.server.config.publicUrl}/rest/v1.1/sites/1/categories/slug:harbour-walks`,
          help: `${harness.server.config.publicUrl}/rest/v1.1/sites/1/categories/slug:harbour-walks/help`,
          site: `${harness.server.config.publicUrl}/rest/v1.1/sites/1`,
        },
      },
    });
    // News: posts 105, 108 and 113 carry it; only 108 is published.
    expect(body.categories.find((term: { slug: string }) => term.slug === 'news').post_count).toBe(1);
  });

  it('lists tags without a token, without `parent`, and pages, orders and searches them', async () => {
    const all = await api('GET', '/sites/1/tags');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ found: 4 });
    expect(all.body.tags.map((term: { slug: string }) => term.slug)).toEqual(['boats', 'dawn', 'harbour', 'travel']);
    expect(all.body.tags[0]).not.toHaveProperty('parent');
    const page = await api('GET', '/sites/1/tags?number=2&page=2&order=DESC');
    expect(page.body).toEqual({
      found: 4,
      tags: [expect.objectContaining({ slug: 'dawn' }), expect.objectContaining({ slug: 'boats' })],
    });
    expect(
      (await api('GET', '/sites/1/tags?number=1&offset=-5')).body.tags.map((term: { slug: string }) => term.slug),
    ).toEqual(['boats']);
    // harbour and travel are on published post 108 (boats and dawn only on trashed posts): equal counts go by ID, in the same direction.
    const byCount = await api('GET', '/sites/1/tags?order_by=count&order=DESC&number=3');
    expect(byCount.body.tags.map((term: { slug: string; post_count: number }) => [term.slug, term.post_count])).toEqual(
      [
        ['travel', 1],
        ['harbour', 1],
        ['dawn', 0],
      ],
    );
    const search = await api('GET', '/sites/1/tags?search=AR&number=0');
    expect(search.body).toMatchObject({ found: 1, tags: [{ slug: 'harbour' }] });
    expect((await api('GET', '/sites/1/tags?search=%25')).body).toEqual({ found: 0, tags: [] });
  });

  it('answers the platform errors: unknown site, a number over 1000, a private site', async () => {
    expect(await api('GET', '/sites/nowhere.example/categories')).toMatchObject({
      status: 404,
      body: { error: 'unknown_blog' },
    });
    expect(await api('GET', '/sites/1/tags?number=1001')).toMatchObject({
      status: 400,
      body: { error: 'invalid_input' },
    });
    // Site 2 has its own Uncategorized (ID 30), not site 1's.
    expect((await api('GET', '/sites/demo.example.com%3A%3Ablog/categories')).body).toMatchObject({
      found: 1,
      categories: [{ ID: 30 }],
    });
  });
});

describe('a term by its slug', () => {
  it('reads a category and a tag without a token; context=edit needs manage_categories', async () => {
    expect(await api('GET', '/sites/1/categories/slug:photography')).toMatchObject({
      status: 200,
      body: { ID: 4, name: 'Photography', description: 'Pictures from around the harbour.', parent: 0 },
    });
    expect(await api('GET', '/sites/1/tags/slug:dawn')).toMatchObject({ status: 200, body: { ID: 14, name: 'dawn' } });
    expect(await api('GET', '/sites/1/tags/slug:dawn?context=edit', 'author')).toMatchObject({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit taxonomy' },
    });
    expect(await api('GET', '/sites/1/tags/slug:dawn?context=edit', 'editor')).toMatchObject({
      status: 200,
      body: { ID: 14 },
    });
  });

  it('is 404 unknown_taxonomy for a slug the site has not, or of the other taxonomy', async () => {
    expect(await api('GET', '/sites/1/categories/slug:dawn')).toMatchObject({
      status: 404,
      body: { error: 'unknown_taxonomy', message: 'Unknown taxonomy' },
    });
    expect(await api('GET', '/sites/1/tags/slug:nothing-here')).toMatchObject({
      status: 404,
      body: { error: 'unknown_taxonomy' },
    });
  });
});

describe('new terms', () => {
  it('adds a category under a parent (TaxonomyServiceRemoteREST createCategory: name, parent) and a tag, readable at once', async () => {
    const category = await api('POST', '/sites/1/categories/new', 'editor', {
      name: 'Ferry times',
      parent: 4,
      description: 'When boats leave.',
    });
    expect(category).toMatchObject({
      status: 200,
      body: { name: 'Ferry times', slug: 'ferry-times', parent: 4, description: 'When boats leave.', post_count: 0 },
    });
    expect(await api('GET', '/sites/1/categories/slug:ferry-times')).toMatchObject({
      status: 200,
      body: { ID: category.body.ID, parent: 4 },
    });
    const tag = await api('POST', '/sites/1/tags/new', 'admin', { name: 'Low tide', parent: 4 });
    expect(tag.status).toBe(200);
    expect(tag.body).toMatchObject({ name: 'Low tide', slug: 'low-tide' });
    expect(tag.body).not.toHaveProperty('parent');
    expect((await harness.store.findTermBySlug(1, 'post_tag', 'low-tide'))?.parentId).toBe(0);
  });

  it('refuses callers who may not edit terms (authors too, for tags), a missing name, a duplicate, an unknown parent', async () => {
    expect(await api('POST', '/sites/1/tags/new', 'author', { name: 'Gulls' })).toMatchObject({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit taxonomy' },
    });
    expect(await api('POST', '/sites/1/categories/new', 'subscriber', { name: 'Gulls' })).toMatchObject({
      status: 403,
    });
    expect(await api('POST', '/sites/1/categories/new', undefined, { name: 'Gulls' })).toMatchObject({
      status: 401,
      body: { error: 'authorization_required' },
    });
    expect(await api('POST', '/sites/1/categories/new', 'editor', { description: 'no name' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', message: 'Unknown data passed' },
    });
    expect(await api('POST', '/sites/1/categories/new', 'editor', { name: 'News' })).toMatchObject({
      status: 400,
      body: { error: 'duplicate' },
    });
    expect(await api('POST', '/sites/1/categories/new', 'editor', { name: 'News', parent: 99999 })).toMatchObject({
      status: 400,
      body: { error: 'missing_parent' },
    });
    // The same name under another parent is another category, with a slug of its own.
    const nested = await api('POST', '/sites/1/categories/new', 'editor', { name: 'News', parent: 4 });
    expect(nested).toMatchObject({ status: 200, body: { name: 'News', slug: 'news-2', parent: 4 } });
    const gulls = await harness.server.built.db.selectFrom('terms').select('id').where('name', '=', 'Gulls').execute();
    expect(gulls).toEqual([]);
  });
});
