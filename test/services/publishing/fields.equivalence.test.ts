import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickFields } from '../../../src/services/publishing/http/present.js';
import { insertPosts, postRow, startPublishing, type PublishingTestServer } from './support.js';

/**
 * With `fields`, a list and a single read build only the keys asked for,
 * from only what those keys need (`postObject`'s `wanted`, the store's
 * `RelationsRequest.parts`): the answer must be, byte for byte, the whole
 * answer trimmed to those keys (`pickFields`, as the presenter trims), for
 * every `fields` a client may send: the apps' sync lists, single keys one
 * by one, unknown and empty names, spaces, and the nested objects.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  // Nothing kept between requests (as on PostgreSQL): every answer is built, the whole one and the trimmed one alike.
  harness = await startPublishing({
    POST_RENDER_CACHE_ENTRIES: '0',
    SITE_CACHE_MS: '600000',
    // Many requests from one caller.
    RATE_LIMIT_PUBLISHING_READS: '1000000',
  });
  tokens.admin = await harness.tokenFor('admin');
  tokens.contributor = await harness.tokenFor('contributor');
  // A draft (its `other_URLs` suggests a slug) and a post whose text is filtered as it is shown, in the demo post's terms,
  // with metadata (some protected, a location) and an attachment.
  await insertPosts(harness, [
    postRow({
      id: 4001,
      status: 'draft',
      slug: '',
      title: 'A <b>draft</b> & more',
      html_unchecked: 1,
      content: '<p onclick="x()">Hello <script>bad()</script> [gallery ids="301,302"]</p>',
      excerpt: '<em>Short</em><script>x</script>',
      featured_media_id: 301,
    }),
    postRow({ id: 4002, author_id: 2, type: 'page', parent_id: 112, title: 'Child page', menu_order: 3 }),
  ]);
  const db = harness.server.built.db;
  const terms = await db.selectFrom('post_terms').select('term_id').where('post_id', '=', 108).execute();
  await db
    .insertInto('post_terms')
    .values(terms.map(({ term_id }) => ({ post_id: 4001, term_id })))
    .execute();
  await db
    .insertInto('post_meta')
    .values([
      { id: 9101, post_id: 4001, meta_key: 'mood', meta_value: JSON.stringify('calm') },
      { id: 9102, post_id: 4001, meta_key: '_secret', meta_value: JSON.stringify('hidden') },
      { id: 9103, post_id: 4001, meta_key: 'geo_latitude', meta_value: JSON.stringify('51.5') },
      { id: 9104, post_id: 4001, meta_key: 'geo_longitude', meta_value: JSON.stringify('-0.12') },
    ])
    .execute();
});
afterAll(() => harness?.close());

/** `fields` as the presenter reads it: names trimmed, empty ones dropped; none named keeps every key. */
const namesOf = (fields: string) =>
  fields
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

async function get(path: string, who: string | undefined): Promise<{ status: number; text: string }> {
  const response = await harness.call(`${harness.server.url}/rest/v1.1${path}`, {
    headers: who ? { Authorization: `Bearer ${tokens[who]}` } : {},
  });
  return { status: response.status, text: await response.text() };
}

/** What the sync of the apps asks for, and the edge cases of `fields`. */
const FIELDS = [
  // The apps' sync lists (a list of a few keys, then the posts that changed).
  'ID,modified',
  'ID,modified,status,meta',
  'ID,status,modified,date,title',
  'ID,date_modified',
  // Unknown, empty and spaced names.
  'nonsense',
  'ID,nonsense',
  '',
  ',',
  ' , ',
  ' ID , modified ',
  'ID,,modified',
  'ID,ID,modified',
  'modified,ID',
  'id',
  'constructor',
  '__proto__',
  // The nested objects, alone and together.
  'author',
  'terms',
  'categories',
  'tags',
  'attachments',
  'metadata',
  'meta',
  'capabilities',
  'discussion',
  'content',
  'excerpt',
  'title,excerpt',
  'content,excerpt',
  'parent',
  'URL,short_URL,other_URLs',
  'featured_image,post_thumbnail',
  'format,geo',
  'revisions',
  'attachment_count,like_count,i_like,is_following',
  'ID,author,terms,categories,tags,attachments,metadata,meta,capabilities,discussion,content,excerpt',
];

const CALLERS = [
  { who: undefined, context: 'display' },
  { who: 'admin', context: 'display' },
  { who: 'admin', context: 'edit' },
  { who: 'contributor', context: 'display' },
] as const;

/** Every post of every type and status the caller may list. */
const LIST = '/sites/1/posts/?status=any,trash&type=any&number=100';

describe('fields: the answer is the whole answer trimmed to the keys asked for', () => {
  let keys: string[] = [];
  beforeAll(async () => {
    // Every top-level key of the post object (`revisions` only with context=edit).
    const all = new Set<string>();
    for (const { who, context } of CALLERS) {
      const whole = JSON.parse((await get(`${LIST}&context=${context}`, who)).text) as { posts: object[] };
      for (const post of whole.posts) Object.keys(post).forEach((key) => all.add(key));
    }
    keys = [...all];
    expect(keys.length).toBeGreaterThan(40);
    expect(keys).toContain('revisions');
  });

  for (const { who, context } of CALLERS) {
    const caller = `${who ?? 'anonymous'}, context=${context}`;

    it(`a list, for the apps' sync lists, the edge cases and each key alone (${caller})`, async () => {
      const query = `${LIST}&context=${context}`;
      const whole = await get(query, who);
      expect(whole.status).toBe(200);
      const body = JSON.parse(whole.text) as { posts: Record<string, unknown>[] };
      expect(body.posts.length).toBeGreaterThan(who === 'admin' ? 10 : 2);
      for (const fields of [...FIELDS, ...keys]) {
        const names = namesOf(fields);
        const expected = names.length ? { ...body, posts: body.posts.map((post) => pickFields(post, names)) } : body;
        const trimmed = await get(`${query}&fields=${encodeURIComponent(fields)}`, who);
        expect(trimmed.status).toBe(200);
        expect(trimmed.text, `fields=${fields}`).toBe(JSON.stringify(expected));
      }
    });

    it(`a single read, for the same fields (${caller})`, async () => {
      // A post with terms, attachments, metadata and revisions; a page with a parent; the filtered draft with a gallery;
      // a page below another by another author.
      for (const id of who === 'admin' ? [107, 108, 113, 4001, 4002] : [108, 113, 4002]) {
        const path = `/sites/1/posts/${id}?context=${context}`;
        const whole = await get(path, who);
        if (whole.status !== 200) continue;
        const body = JSON.parse(whole.text) as Record<string, unknown>;
        for (const fields of [...FIELDS, ...keys]) {
          const names = namesOf(fields);
          const trimmed = await get(`${path}&fields=${encodeURIComponent(fields)}`, who);
          expect(trimmed.status).toBe(200);
          expect(trimmed.text, `post ${id}, fields=${fields}`).toBe(
            JSON.stringify(names.length ? pickFields(body, names) : body),
          );
        }
      }
    });
  }

  it('meta with links loaded (`meta=site,likes,replies`): the same', async () => {
    for (const path of [
      `${LIST}&meta=site,likes,replies`,
      '/sites/1/posts/113?meta=site,likes,replies',
      '/sites/1/posts/4002?meta=likes',
    ]) {
      const whole = JSON.parse((await get(path, 'admin')).text) as Record<string, unknown>;
      for (const fields of ['meta', 'ID,meta', 'ID,modified,status,meta', 'ID,modified', 'URL,meta']) {
        const names = namesOf(fields);
        const expected = Array.isArray(whole.posts)
          ? { ...whole, posts: (whole.posts as Record<string, unknown>[]).map((post) => pickFields(post, names)) }
          : pickFields(whole, names);
        const trimmed = await get(`${path}&fields=${encodeURIComponent(fields)}`, 'admin');
        expect(trimmed.text, `${path}, fields=${fields}`).toBe(JSON.stringify(expected));
      }
    }
  });

  it('a read by slug: the same', async () => {
    const path = '/sites/1/posts/slug:welcome-to-the-demo-site';
    const whole = JSON.parse((await get(path, undefined)).text) as Record<string, unknown>;
    for (const fields of FIELDS) {
      const names = namesOf(fields);
      const trimmed = await get(`${path}?fields=${encodeURIComponent(fields)}`, undefined);
      expect(trimmed.text, `fields=${fields}`).toBe(JSON.stringify(names.length ? pickFields(whole, names) : whole));
    }
  });
});
