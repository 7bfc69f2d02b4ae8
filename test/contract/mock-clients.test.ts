import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANDROID_CAPABILITY_READS,
  IOS_OPTION_READS,
  IOS_SITE_READS,
  androidPost,
  androidSiteFields,
  androidSitesQuery,
  androidFetchPostQuery,
  androidTerm,
  IOS_ME_READS,
  iosPost,
  iosSitesQuery,
} from '../fixtures/client-bodies.js';
import { callMock, startMock, type RunningMock } from '../support/mock.js';

/**
 * The platform's clients against the mock (issue 43): the request shapes
 * the server's tests replay on both stores, taken from each client's source
 * and named by file (test/services/publishing/client-writes.test.ts,
 * v12.test.ts, terms.test.ts, post-types.test.ts, autosave.test.ts), sent
 * to `npm run mock`. Each answer is checked against the contract (the
 * support does it) and must hold every field the client's source reads
 * from it, so a front end built on the mock reads what the server gives.
 *
 * The mock keeps no data (docs/mock.md): a save answers the example post,
 * not the one sent; a list, the example's posts whatever it filters; a new
 * term, the example term. Where that makes an answer differ from the
 * server's, the test says so (DIFFERS) and checks that it still differs.
 */
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
}, 60_000);
afterAll(() => mock?.stop());

const token = { Authorization: 'Bearer any-token' };
const json = { 'Content-Type': 'application/json' };

/** A call to the mock with a token, a JSON body when given; its answer checked against the contract. */
async function call(method: 'GET' | 'POST', prefix: '/rest/v1.1' | '/rest/v1.2', path: string, body?: unknown) {
  const answer = await callMock(mock.origin, prefix, path, {
    method,
    headers: { ...token, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(answer.status, `${method} ${prefix}${path}: ${answer.text.slice(0, 300)}`).toBe(200);
  return answer.json() as Record<string, unknown>;
}

/** The value at a dotted path (`author.avatar_URL`), undefined when a step is missing. */
function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (current, key) =>
        current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined,
      value,
    );
}

/** Every field a client reads is in the answer (a `false` or `null` the contract allows counts: the client reads it as none). */
function expectReads(answer: unknown, reads: readonly string[], who: string) {
  const missing = reads.filter((path) => at(answer, path) === undefined);
  expect(missing, `${who} reads these, missing from the mock's answer`).toEqual([]);
}

/**
 * What each client reads of a post object. iOS: WordPressKit
 * `PostServiceRemoteREST.m` `remotePostFromJSONDictionary:` (and
 * `remoteCategoryFromJSONDictionary:`); Android: FluxC
 * `PostWPComRestResponse.kt` (what `PostRestClient` parses a post into);
 * the web editor: Calypso keeps the whole post object (`state/posts`), and
 * these are the fields its editor and posts screen show.
 */
const POST_READS = {
  ios: [
    'ID',
    'site_ID',
    'author.ID',
    'author.name',
    'author.email',
    'author.URL',
    'author.avatar_URL',
    'date',
    'modified',
    'title',
    'URL',
    'short_URL',
    'content',
    'excerpt',
    'slug',
    'other_URLs',
    'status',
    'password',
    'parent',
    'post_thumbnail',
    'type',
    'format',
    'discussion.comment_count',
    'like_count',
    'sticky',
    'metadata',
    'categories',
    'tags',
  ],
  android: [
    'ID',
    'site_ID',
    'date',
    'modified',
    'title',
    'URL',
    'short_URL',
    'content',
    'excerpt',
    'slug',
    'guid',
    'status',
    'sticky',
    'password',
    'parent',
    'type',
    'featured_image',
    'post_thumbnail',
    'format',
    'geo',
    'tags',
    'categories',
    'capabilities.publish_post',
    'capabilities.edit_post',
    'capabilities.delete_post',
    'metadata',
    'author.ID',
    'author.name',
  ],
  calypso: [
    'ID',
    'site_ID',
    'author.ID',
    'author.name',
    'author.avatar_URL',
    'date',
    'modified',
    'title',
    'URL',
    'short_URL',
    'content',
    'excerpt',
    'slug',
    'guid',
    'status',
    'sticky',
    'password',
    'parent',
    'type',
    'discussion.comments_open',
    'discussion.pings_open',
    'likes_enabled',
    'sharing_enabled',
    'like_count',
    'i_like',
    'global_ID',
    'featured_image',
    'post_thumbnail',
    'format',
    'terms.category',
    'terms.post_tag',
    'tags',
    'categories',
    'attachments',
    'attachment_count',
    'metadata',
    'meta.links.self',
    'capabilities.publish_post',
    'capabilities.edit_post',
    'capabilities.delete_post',
    'other_URLs',
  ],
} as const;

/** Where the mock's answer differs from the server's for a reason of state, each checked to differ still. */
const DIFFERS = {
  saved:
    'the mock keeps no data: a save answers the example post (`PostPublished`), not the post sent (docs/mock.md, "The mock keeps no data")',
  suggestedSlug:
    'the example post is published, so its `other_URLs` is empty; the server answers a new draft with `other_URLs.suggested_slug` (iOS reads it as optional)',
  listed:
    'a list answers the example\u2019s posts whatever `status` asks for (docs/mock.md, "Lists hold the example\u2019s posts")',
  term: 'a new term answers the example term, not the name sent',
  autosave: 'an autosave answers the example autosave, not the fields sent',
  noAutosave:
    'the example post has no autosave newer than it, so neither `meta.links.autosave` nor `meta.data.autosave` (the server links and loads one where there is)',
  anonymousSite:
    'a site read answers the example site read without a token: no `capabilities` or `options` (the server gives them to a user with a role there)',
};

describe('iOS: WordPressKit PostServiceRemoteREST.m', () => {
  it('lists with status=any,trash&number=40 through v1.2 (context=edit), paging by page_handle until none', async () => {
    const list = await call(
      'GET',
      '/rest/v1.2',
      '/sites/demo.example.com/posts/?status=any,trash&number=40&context=edit',
    );
    expectReads(list, ['found', 'posts'], 'PostServiceRemoteREST getPostsOfType:');
    for (const post of list.posts as unknown[]) expectReads(post, POST_READS.ios, 'remotePostFromJSONDictionary:');
    expect(at(list, 'meta.next_page'), 'one page holds them all: no next page').toBeUndefined();
    expect(
      (list.posts as { status: string }[]).every((post) => post.status === 'publish'),
      DIFFERS.listed,
    ).toBe(true);
  });

  it('saves a new post (parent "false", sticky "false", terms, categories_by_id) and updates it, through v1.2', async () => {
    const created = await call('POST', '/rest/v1.2', '/sites/1/posts/new?context=edit', iosPost());
    expectReads(created, POST_READS.ios, 'remotePostFromJSONDictionary:');
    expect(created.title, DIFFERS.saved).not.toBe('From the phone');
    expect(at(created, 'other_URLs.suggested_slug'), DIFFERS.suggestedSlug).toBeUndefined();
    const updated = await call(
      'POST',
      '/rest/v1.2',
      `/sites/1/posts/${String(created.ID)}?context=edit`,
      iosPost({
        title: 'Harbour notes',
        sticky: 'true',
        featured_image: '201',
        metadata: [{ id: '508', key: 'mood', value: 'sunny', operation: 'update' }],
      }),
    );
    expectReads(updated, POST_READS.ios, 'remotePostFromJSONDictionary:');
    // A page under a parent given as a number, as iOS sends a page's parentID.
    expectReads(
      await call(
        'POST',
        '/rest/v1.2',
        '/sites/1/posts/new',
        iosPost({ type: 'page', parent: 112, terms: undefined, categories_by_id: undefined }),
      ),
      POST_READS.ios,
      'a page',
    );
  });

  it('createPost:withMedia: a multipart body with media[] (the file refused until media exists, as the server does)', async () => {
    const form = new FormData();
    form.append('content', 'A photo from the pier.');
    form.append('title', 'Pier photo');
    form.append('status', 'draft');
    form.append('media[]', new Blob([new Uint8Array(64).fill(7)], { type: 'image/jpeg' }), 'pier.jpg');
    const answer = await callMock(mock.origin, '/rest/v1.1', '/sites/1/posts/new?context=edit', {
      method: 'POST',
      headers: token,
      body: form,
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expectReads(answer.json(), POST_READS.ios, 'remotePostFromJSONDictionary:');
  });

  it('reads the post types: post_types[].name, label, labels (the posts screen)', async () => {
    const types = await call('GET', '/rest/v1.1', '/sites/demo.example.com/post-types?api_queryable=true');
    expectReads(types, ['found', 'post_types'], 'post types');
    for (const type of types.post_types as unknown[])
      expectReads(
        type,
        ['name', 'label', 'labels.name', 'labels.singular_name', 'api_queryable', 'supports'],
        'post type',
      );
  });
});

describe('iOS: WordPressKit AccountServiceRemoteREST.m; Android: FluxC SiteRestClient.kt', () => {
  it('iOS syncs its sites through v1.2 (site_visibility=visible): RemoteBlog’s keys, capabilities.manage_options, the options', async () => {
    const answer = await call('GET', '/rest/v1.2', `/me/sites?${iosSitesQuery}`);
    expectReads(answer, ['sites'], 'getBlogsWithParameters');
    for (const site of answer.sites as unknown[]) {
      expectReads(site, IOS_SITE_READS, 'RemoteBlog initWithJSONDictionary:');
      expectReads(
        site,
        IOS_OPTION_READS.map((option) => `options.${option}`),
        'RemoteBlogOptionsHelper',
      );
      expect(at(site, 'locale'), 'v1.2 names the language locale').toBe('en');
    }
  });

  it('Android fetches its sites through v1.2 with filters and SITE_FIELDS (only those keys), and a site through v1.1', async () => {
    const answer = await call('GET', '/rest/v1.2', `/me/sites?${androidSitesQuery}`);
    const allowed = new Set(androidSiteFields.split(','));
    for (const site of answer.sites as Record<string, unknown>[]) {
      expect(Object.keys(site).filter((key) => !allowed.has(key))).toEqual([]);
      expectReads(
        site,
        [
          'ID',
          'URL',
          'name',
          'jetpack',
          'jetpack_connection',
          'visible',
          'is_private',
          ...ANDROID_CAPABILITY_READS.map((name) => `capabilities.${name}`),
          'options.admin_url',
          'options.login_url',
          'options.gmt_offset',
          'options.featured_images_enabled',
        ],
        'siteResponseToSiteModel',
      );
    }
    const single = await call('GET', '/rest/v1.1', `/sites/1?fields=${androidSiteFields}`);
    expectReads(single, ['ID', 'URL', 'name', 'jetpack', 'visible', 'is_private', 'meta.links.self'], 'fetchSite');
    expect(single.capabilities, DIFFERS.anonymousSite).toBeUndefined();
  });
});

describe('iOS: WordPressKit AccountServiceRemoteREST.m getAccountDetailsWithSuccess:', () => {
  it('reads /me through v1.1 with every key remoteUserFromDictionary: reads (date, email_verified)', async () => {
    const answer = await call('GET', '/rest/v1.1', '/me');
    expectReads(answer, IOS_ME_READS, 'remoteUserFromDictionary:');
    expect(Number.isNaN(Date.parse(answer.date as string))).toBe(false);
    expect(typeof answer.email_verified).toBe('boolean');
  });
});

describe('Android: FluxC PostRestClient.java fetchPost', () => {
  it('reads a post with context=edit&meta=autosave', async () => {
    const post = await call('GET', '/rest/v1.1', `/sites/1/posts/108?${androidFetchPostQuery}`);
    expectReads(post, POST_READS.android, 'PostWPComRestResponse');
    expect(at(post, 'meta.data.autosave'), DIFFERS.noAutosave).toBeUndefined();
  });
});

describe('iOS: WordPressKit TaxonomyServiceRemoteREST.m', () => {
  it('lists categories and tags with context=edit&number=1000, and adds a category under a parent', async () => {
    const categories = await call('GET', '/rest/v1.1', '/sites/demo.example.com/categories?context=edit&number=1000');
    expectReads(categories, ['found', 'categories'], 'getCategoriesWithSuccess:');
    for (const category of categories.categories as unknown[])
      expectReads(category, ['ID', 'name', 'slug', 'parent', 'post_count'], 'remoteCategoryWithJSONDictionary:');
    const tags = await call('GET', '/rest/v1.1', '/sites/demo.example.com/tags?context=edit&number=1000');
    expectReads(tags, ['found', 'tags'], 'getTagsWithSuccess:');
    for (const tag of tags.tags as unknown[])
      expectReads(tag, ['ID', 'name', 'slug', 'description', 'post_count'], 'remoteTagWithJSONDictionary:');
    const created = await call('POST', '/rest/v1.1', '/sites/1/categories/new', { name: 'Ferry times', parent: 4 });
    expectReads(created, ['ID', 'name', 'slug', 'parent'], 'createCategory:');
    expect(created.name, DIFFERS.term).not.toBe('Ferry times');
    const tag = await call('POST', '/rest/v1.1', '/sites/1/tags/new', { name: 'Low tide' });
    expectReads(tag, ['ID', 'name', 'slug', 'description', 'post_count'], 'createTag:');
  });
});

describe('Android: FluxC TaxonomyRestClient.java; web editor: Calypso state/terms/actions.js, wpcom.js site.post-type.js', () => {
  it('lists a taxonomy’s terms with number=1000, adds one, and lists the post type’s taxonomies', async () => {
    const terms = await call('GET', '/rest/v1.1', '/sites/1/taxonomies/category/terms?number=1000');
    expectReads(terms, ['found', 'terms'], 'fetchTerms');
    for (const term of terms.terms as unknown[])
      expectReads(term, ['ID', 'name', 'slug', 'description', 'parent', 'post_count'], 'termResponseToTermModel');
    const pushed = await call(
      'POST',
      '/rest/v1.1',
      '/sites/1/taxonomies/post_tag/terms/new?context=edit',
      androidTerm(),
    );
    expectReads(pushed, ['ID', 'name', 'slug', 'description', 'post_count'], 'pushTerm');
    // The read, edit and delete by `slug:` are not routed by Prism (docs/mock.md, Slug reads).
    const taxonomies = await call('GET', '/rest/v1.1', '/sites/1/post-types/post/taxonomies');
    expectReads(taxonomies, ['found', 'taxonomies'], 'taxonomiesList');
    for (const taxonomy of taxonomies.taxonomies as unknown[])
      expectReads(taxonomy, ['name', 'label', 'labels.name', 'hierarchical', 'capabilities'], 'getPostTypeTaxonomies');
  });
});

describe('Android: FluxC PostRestClient.java', () => {
  it('fetches posts (number, offset, status, type) through v1.1 and pushes a post through v1.2', async () => {
    const list = await call(
      'GET',
      '/rest/v1.1',
      '/sites/1/posts/?context=edit&number=20&offset=0&status=draft,pending,publish,private,future&type=post',
    );
    for (const post of list.posts as unknown[]) expectReads(post, POST_READS.android, 'PostWPComRestResponse');
    const pushed = await call(
      'POST',
      '/rest/v1.2',
      '/sites/1/posts/new?context=edit',
      androidPost({
        metadata: [
          { key: 'geo_latitude', value: 57.7, operation: 'update' },
          { key: 'geo_longitude', value: 11.97 },
        ],
      }),
    );
    expectReads(pushed, POST_READS.android, 'PostWPComRestResponse');
    expect(pushed.status, DIFFERS.saved).not.toBe('draft');
    const edited = await call(
      'POST',
      '/rest/v1.2',
      `/sites/1/posts/${String(pushed.ID)}?context=edit`,
      androidPost({ status: 'publish', featured_image: 305 }),
    );
    expectReads(edited, POST_READS.android, 'PostWPComRestResponse');
    // A page with its parent as a number (0 for none).
    const page = await call('POST', '/rest/v1.2', '/sites/1/posts/new', {
      ...androidPost({ terms: undefined, terms_by_id: undefined, format: undefined }),
      type: 'page',
      parent: 0,
    });
    expectReads(page, POST_READS.android, 'PostWPComRestResponse');
  });

  it('autosaves (title, content, excerpt) and reads the revisions (RevisionsResponse)', async () => {
    const saved = await call('POST', '/rest/v1.1', '/sites/1/posts/108/autosave', {
      title: 'Welcome, from the train',
      content: 'A newer welcome.',
      excerpt: '',
    });
    expectReads(saved, ['ID', 'post_ID', 'modified', 'preview_URL'], 'PostRestClient autoSave');
    const read = await call('GET', '/rest/v1.1', '/sites/1/posts/108/autosave');
    expectReads(
      read,
      ['ID', 'post_ID', 'author_ID', 'title', 'content', 'excerpt', 'preview_URL', 'modified'],
      'autosave read',
    );
    expect(read.title, DIFFERS.autosave).not.toBe('Welcome, from the train');
    const diffs = await call('GET', '/rest/v1.1', '/sites/1/post/108/diffs');
    expectReads(diffs, ['diffs', 'revisions'], 'RevisionsResponse');
    for (const diff of diffs.diffs as unknown[])
      expectReads(diff, ['from', 'to', 'diff.post_title', 'diff.post_content', 'diff.totals'], 'DiffResponse');
    for (const revision of Object.values(diffs.revisions as Record<string, unknown>)) {
      expectReads(
        revision,
        ['id', 'post_date_gmt', 'post_modified_gmt', 'post_author', 'post_content', 'post_excerpt', 'post_title'],
        'RevisionResponse',
      );
    }
  });
});

describe('web editor: Calypso save-edited.js, save-post.js and the posts screen', () => {
  it('saves the edits only (terms by name, terms_by_id, discussion, metadata) through v1.2, new and again', async () => {
    const created = await call('POST', '/rest/v1.2', '/sites/1/posts/new?context=edit', {
      title: 'Editor draft',
      content: '<p>Draft</p>',
      status: 'draft',
      terms: { post_tag: ['calypso', 'Harbour'] },
      terms_by_id: { category: [3] },
      discussion: { comment_status: 'closed', ping_status: 'open' },
      metadata: [
        { key: '_wpas_mess', value: 'Out now', operation: 'update' },
        { key: 'geo_public', value: '1', operation: 'update' },
      ],
    });
    expectReads(created, POST_READS.calypso, 'state/posts');
    expect(created.title, DIFFERS.saved).not.toBe('Editor draft');
    const edited = await call('POST', '/rest/v1.2', `/sites/1/posts/${String(created.ID)}?context=edit`, {
      terms: { category: ['News'] },
      categories: 'Photography',
    });
    expectReads(edited, POST_READS.calypso, 'state/posts');
    // v1.2's names for categories and tags, IDs under *_by_id (save-post.js).
    const named = await call('POST', '/rest/v1.2', '/sites/1/posts/new?context=edit', {
      title: 'Harbour in 2026',
      categories: ['2026'],
      categories_by_id: [4],
      tags: '3,harbour',
      tags_by_id: '15',
    });
    expectReads(named, POST_READS.calypso, 'state/posts');
    // The featured image under the metadata key the platform keeps it at.
    expectReads(
      await call('POST', '/rest/v1.2', `/sites/1/posts/${String(created.ID)}`, {
        metadata: [{ key: '_thumbnail_id', value: '201', operation: 'update' }],
      }),
      POST_READS.calypso,
      'state/posts',
    );
  });

  it('post-editor.jsx setPostDate: "Publish Immediately" saves date: null (a top-level null is not given, as the server reads it)', async () => {
    const created = await call('POST', '/rest/v1.2', '/sites/1/posts/new?context=edit', {
      title: 'Right away',
      status: 'draft',
      date: null,
    });
    expectReads(created, POST_READS.calypso, 'state/posts');
    expectReads(
      await call('POST', '/rest/v1.2', `/sites/1/posts/${String(created.ID)}?context=edit`, {
        date: null,
        parent: null,
        featured_image: null,
        excerpt: null,
        title: 'Right away, again',
      }),
      POST_READS.calypso,
      'state/posts',
    );
  });

  it('the posts screen: a page of posts with next_page followed until none, the type\u2019s labels, the tag selector', async () => {
    const seen: number[] = [];
    let handle: string | undefined;
    let pages = 0;
    do {
      const page = await call(
        'GET',
        '/rest/v1.2',
        `/sites/1/posts/?status=publish,private&number=2&order_by=date&type=post${handle ? `&page_handle=${encodeURIComponent(handle)}` : ''}`,
      );
      expect((page.posts as unknown[]).length, 'a page holds at most `number` posts').toBeLessThanOrEqual(2);
      for (const post of page.posts as unknown[]) expectReads(post, POST_READS.calypso, 'the posts screen');
      seen.push(...(page.posts as { ID: number }[]).map((post) => post.ID));
      handle = at(page, 'meta.next_page') as string | undefined;
      pages++;
    } while (handle && pages < 20);
    expect(handle).toBeUndefined();
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    const types = await call('GET', '/rest/v1.1', '/sites/1/post-types');
    for (const type of types.post_types as unknown[])
      expectReads(
        type,
        ['name', 'label', 'labels.singular_name', 'labels.add_new_item', 'supports', 'capabilities'],
        'state/post-types',
      );
    const tags = await call('GET', '/rest/v1.1', '/sites/1/tags?number=1000&search=');
    for (const tag of tags.tags as unknown[])
      expectReads(tag, ['ID', 'name', 'slug', 'post_count'], 'the term selector');
  });

  it('autosaves a published post and reads its preview', async () => {
    const saved = await call('POST', '/rest/v1.1', '/sites/1/posts/108/autosave', {
      title: 'Welcome, again',
      content: 'Newer.',
    });
    expectReads(saved, ['ID', 'post_ID', 'preview_URL', 'modified'], 'the editor\u2019s autosave');
  });
});
