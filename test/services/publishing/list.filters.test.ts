import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, list, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The list's filters the platform's endpoint applies (issue 43, item 6):
 * `tag`, `category`, `term`, `exclude`, `parent_id`, `meta_key` /
 * `meta_value`, and `meta_fields` over what `meta` loads.
 */
let harness: PublishingTestServer;
let admin: string;
let author: string;
/** Every post of this file is dated after it (the demo's are older). */
const SINCE = '2030-01-01T00:00:00Z';

beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
  author = await harness.tokenFor('author');
  const db = harness.server.built.db;
  // Categories: Regatta (9001) with Dinghies (9002) below it, Dinghies' Lasers (9003) below that; tags: sail (9011), wind (9012).
  await db
    .insertInto('terms')
    .values([
      { id: 9001, site_id: 1, taxonomy: 'category', name: 'Regatta', slug: 'regatta', description: '', parent_id: 0 },
      {
        id: 9002,
        site_id: 1,
        taxonomy: 'category',
        name: 'Dinghies',
        slug: 'dinghies',
        description: '',
        parent_id: 9001,
      },
      { id: 9003, site_id: 1, taxonomy: 'category', name: 'Lasers', slug: 'lasers', description: '', parent_id: 9002 },
      { id: 9011, site_id: 1, taxonomy: 'post_tag', name: 'Sail', slug: 'sail', description: '', parent_id: 0 },
      { id: 9012, site_id: 1, taxonomy: 'post_tag', name: 'Wind', slug: 'wind', description: '', parent_id: 0 },
    ])
    .execute();
  const at = (day: number) => `2030-01-${String(day).padStart(2, '0')}T10:00:00.000Z`;
  await insertPosts(harness, [
    postRow({ id: 9101, date: at(1), modified: at(1) }),
    postRow({ id: 9102, date: at(2), modified: at(2), parent_id: 9101 }),
    postRow({ id: 9103, date: at(3), modified: at(3), parent_id: 9101 }),
    postRow({ id: 9104, date: at(4), modified: at(4) }),
  ]);
  await db
    .insertInto('post_terms')
    .values([
      { post_id: 9101, term_id: 9001 },
      { post_id: 9101, term_id: 9011 },
      { post_id: 9102, term_id: 9002 },
      { post_id: 9102, term_id: 9011 },
      { post_id: 9102, term_id: 9012 },
      { post_id: 9103, term_id: 9003 },
      { post_id: 9104, term_id: 9012 },
    ])
    .execute();
  await db
    .insertInto('post_meta')
    .values([
      { id: 9201, post_id: 9101, meta_key: 'crew', meta_value: JSON.stringify('four') },
      { id: 9202, post_id: 9102, meta_key: 'crew', meta_value: JSON.stringify(2) },
      { id: 9203, post_id: 9104, meta_key: '_thumbnail_id', meta_value: JSON.stringify('5') },
    ])
    .execute();
});
afterAll(() => harness?.close());

const ids = (body: Record<string, any>) => (body.posts as { ID: number }[]).map((post) => post.ID);
const listed = async (query: Record<string, unknown>, token: string | undefined = admin) =>
  list(harness, token, 1, { after: SINCE, order: 'ASC', ...query } as never);
/** A raw GET of the list (for query shapes the SDK does not write), contract-checked. */
const rawList = async (query: string) => {
  const response = await harness.call(
    `${harness.server.url}/rest/v1.1/sites/1/posts/?after=${SINCE}&order=ASC&${query}`,
    {
      headers: { Authorization: `Bearer ${admin}` },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('tag', () => {
  it('lists the posts with the tag, by slug or by name', async () => {
    expect(ids((await listed({ tag: 'sail' })).body)).toEqual([9101, 9102]);
    expect(ids((await listed({ tag: 'Wind' })).body)).toEqual([9102, 9104]);
  });

  it('takes a comma list as any of the tags, a + list as all of them', async () => {
    expect(ids((await listed({ tag: 'sail,wind' })).body)).toEqual([9101, 9102, 9104]);
    expect(ids((await listed({ tag: 'sail+wind' })).body)).toEqual([9102]);
    // A `+` sent unencoded arrives as a space: all of them too.
    expect(ids((await rawList('tag=sail+wind')).body)).toEqual([9102]);
  });

  it('lists nothing for a tag the site does not have, with the counts link and no next page', async () => {
    const { status, body } = await listed({ tag: 'nonexistent', number: 1 });
    expect(status).toBe(200);
    expect(body).toEqual({
      found: 0,
      posts: [],
      meta: { links: { counts: `${harness.server.config.publicUrl}/rest/v1.1/sites/1/post-counts/post` } },
    });
  });
});

describe('category', () => {
  it('lists the posts in the category and the categories below it', async () => {
    expect(ids((await listed({ category: 'regatta' })).body)).toEqual([9101, 9102, 9103]);
    expect(ids((await listed({ category: 'Dinghies' })).body)).toEqual([9102, 9103]);
    expect(ids((await listed({ category: 'lasers' })).body)).toEqual([9103]);
  });

  it('reads slugs of no category as the platform reads category_name: a path, any of a comma list', async () => {
    expect(ids((await listed({ category: 'regatta/lasers' })).body)).toEqual([9103]);
    expect(ids((await listed({ category: 'lasers,nothing' })).body)).toEqual([9103]);
    expect((await listed({ category: 'nothing' })).body.found).toBe(0);
  });
});

describe('term', () => {
  it('lists posts with one of each taxonomy\u2019s slugs (terms below them too), every taxonomy', async () => {
    expect(ids((await rawList('term[category]=dinghies')).body)).toEqual([9102, 9103]);
    expect(ids((await rawList('term[category]=regatta&term[post_tag]=wind')).body)).toEqual([9102]);
    expect(ids((await rawList('term[post_tag]=sail,wind')).body)).toEqual([9101, 9102, 9104]);
    expect(ids((await listed({ term: { post_tag: 'wind' } })).body)).toEqual([9102, 9104]);
  });

  it('ignores a taxonomy no post type has, and lists nothing for slugs of none of a known one\u2019s terms', async () => {
    expect(ids((await rawList('term[nonsense]=x')).body)).toEqual([9101, 9102, 9103, 9104]);
    expect((await rawList('term[post_tag]=nothing')).body.found).toBe(0);
  });
});

describe('exclude and parent_id', () => {
  it('leaves out the posts exclude names: one, repeated, or in brackets', async () => {
    expect(ids((await listed({ exclude: [9101] })).body)).toEqual([9102, 9103, 9104]);
    expect(ids((await rawList('exclude=9101&exclude=9104')).body)).toEqual([9102, 9103]);
    expect(ids((await rawList('exclude[]=9102&exclude[]=9103')).body)).toEqual([9101, 9104]);
    expect(ids((await rawList('exclude[0]=9101')).body)).toEqual([9102, 9103, 9104]);
  });

  it('lists the children of parent_id, and with 0 the posts without a parent', async () => {
    expect(ids((await listed({ parent_id: 9101 })).body)).toEqual([9102, 9103]);
    expect(ids((await listed({ parent_id: 0 })).body)).toEqual([9101, 9104]);
  });
});

describe('meta_key and meta_value', () => {
  it('lists posts with an entry of the key, and of the value (text, or the number it spells)', async () => {
    expect(ids((await listed({ meta_key: 'crew' })).body)).toEqual([9101, 9102]);
    expect(ids((await listed({ meta_key: 'crew', meta_value: 'four' })).body)).toEqual([9101]);
    expect(ids((await listed({ meta_key: 'crew', meta_value: '2' })).body)).toEqual([9102]);
    // meta_value alone is ignored.
    expect(ids((await listed({ meta_value: 'four' })).body)).toEqual([9101, 9102, 9103, 9104]);
  });

  it('refuses a protected key (404 invalid_meta_key), but for the public ones', async () => {
    expect((await listed({ meta_key: '_edit_last' })).body).toEqual({
      error: 'invalid_meta_key',
      message: 'Invalid meta key',
    });
    expect((await listed({ meta_key: '_edit_last' }, undefined)).status).toBe(404);
    expect(ids((await listed({ meta_key: '_thumbnail_id', meta_value: '5' })).body)).toEqual([9104]);
  });
});

describe('meta_fields', () => {
  it('keeps of each post\u2019s meta.data only the named fields of each link', async () => {
    const { body } = await listed({ number: 1, meta: 'site,likes', meta_fields: 'site.ID,site.name' });
    expect(body.posts[0].meta.data).toEqual({ site: { ID: 1, name: 'Harbour Town Demo' } });
    // The links stay.
    expect(body.posts[0].meta.links.self).toMatch(/\/posts\/9101$/);
  });

  it('changes nothing on posts without meta.data: meta=autosave loads nothing while the post has no newer autosave', async () => {
    const { status, body } = await listed({
      number: 2,
      context: 'edit',
      meta: 'autosave',
      meta_fields: 'autosave.modified,autosave.post_ID',
    });
    expect(status).toBe(200);
    for (const post of body.posts) expect(post.meta.data).toBeUndefined();
    const plain = await listed({ number: 2, context: 'edit' });
    expect(body.posts).toEqual(plain.body.posts);
  });
});

describe('under the change mark (posts kept rendered for callers without a token, SQLite)', () => {
  it('sees a term given after a list: the filter and the kept post objects both follow the write', async () => {
    const tagsOf = (body: Record<string, any>, id: number) =>
      Object.keys(body.posts.find((post: { ID: number }) => post.ID === id)?.tags ?? {});
    const before = await listed({ exclude: [9103] }, undefined);
    expect(tagsOf(before.body, 9104)).toEqual(['Wind']);
    expect(ids((await listed({ tag: 'sail' }, undefined)).body)).toEqual([9101, 9102]);
    await harness.server.built.db.insertInto('post_terms').values({ post_id: 9104, term_id: 9011 }).execute();
    const after = await listed({ tag: 'sail' }, undefined);
    expect(ids(after.body)).toEqual([9101, 9102, 9104]);
    expect(tagsOf(after.body, 9104).sort()).toEqual(['Sail', 'Wind']);
    await harness.server.built.db
      .deleteFrom('post_terms')
      .where('post_id', '=', 9104)
      .where('term_id', '=', 9011)
      .execute();
  });
});

describe('next_page', () => {
  it('is given only on a page with posts the caller may see', async () => {
    // The author may edit none of the admin's posts: context=edit leaves the page empty.
    const { body } = await listed({ number: 1, context: 'edit' }, author);
    expect(body.posts).toEqual([]);
    expect(body.meta?.next_page).toBeUndefined();
    const shown = await listed({ number: 1 });
    expect(shown.body.meta.next_page).toBeDefined();
  });
});
