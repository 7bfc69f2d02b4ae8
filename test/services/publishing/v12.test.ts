import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * REST v1.2 (`/rest/v1.2/sites/{site}/posts/...`): the list, read, create and
 * edit the clients call through the newer version. Request shapes: iOS's
 * `PostServiceRemoteREST.m` (lists `status=any,trash&number=40` and saves
 * through v1.2), Calypso's `state/posts/actions/save-post.js` (saves through
 * v1.2 with `categories_by_id`/`tags` names), Android's FluxC `PostRestClient`
 * (pushes through v1.2). Every answer goes through the contract checker.
 */
/** An origin the deployment lets call the API (`PUBLISHING_CORS_ORIGINS`). */
const APP = 'http://app.example';
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing({ PUBLISHING_CORS_ORIGINS: APP });
  for (const login of ['admin', 'editor', 'author']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST' | 'PUT', path: string, login?: string, body?: unknown, version = 'v1.2') =>
  callJson(harness, method, `/rest/${version}${path}`, login === undefined ? undefined : tokens[login], body);

const termNames = (terms: Record<string, unknown>) => Object.keys(terms).sort();

describe('the v1.2 list and read', () => {
  it('answers what the v1.1 list answers (iOS: status=any,trash&number=40)', async () => {
    const query = '/sites/demo.example.com/posts/?status=any,trash&number=40&context=edit';
    const v12 = await api('GET', query, 'admin');
    const v11 = await api('GET', query, 'admin', undefined, 'v1.1');
    expect(v12.status).toBe(200);
    expect(v12.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(v12.body).toEqual(v11.body);
    expect(v12.body.posts.some((post: { status: string }) => post.status === 'trash')).toBe(true);
  });

  it('reads a post as v1.1 does, and answers the endpoint layer\u2019s empty 404 for a path v1.2 does not serve', async () => {
    const v12 = await api('GET', '/sites/1/posts/108');
    expect(v12).toMatchObject({ status: 200, body: { ID: 108, status: 'publish' } });
    expect(v12.body).toEqual((await api('GET', '/sites/1/posts/108', undefined, undefined, 'v1.1')).body);
    const unknown = await api('GET', '/sites/1/post-types');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
    expect(await api('PUT', '/sites/1/posts/108', 'admin', {})).toMatchObject({
      status: 405,
      body: { error: 'not_allowed' },
    });
  });
});

describe('v1.2 likes and post counts (both apps ask v1.2 for the likers; the counts declare max_version 1.2)', () => {
  it('answers the likers and the counts as v1.1 does, with the keys the apps read', async () => {
    const likes = await api('GET', '/sites/1/posts/101/likes', 'admin');
    expect(likes.status).toBe(200);
    expect(likes.body).toEqual((await api('GET', '/sites/1/posts/101/likes', 'admin', undefined, 'v1.1')).body);
    // FluxC `PostRestClient.fetchPostLikes` / WordPressKit: `found`, `i_like`, `likes[].ID`, `login`, `name`, `avatar_URL`.
    expect(typeof likes.body.found).toBe('number');
    expect(typeof likes.body.i_like).toBe('boolean');
    for (const liker of likes.body.likes) {
      expect(typeof liker.ID).toBe('number');
      expect(typeof liker.name).toBe('string');
      expect(typeof liker.avatar_URL).toBe('string');
    }
    const counts = await api('GET', '/sites/1/post-counts/post', 'admin');
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual((await api('GET', '/sites/1/post-counts/post', 'admin', undefined, 'v1.1')).body);
    expect(typeof counts.body.counts.all.publish).toBe('number');
    expect((await api('GET', '/sites/1/post-counts/post')).status).toBe(403);
  });
});

describe('v1.2 writes', () => {
  it('answers a published new post with empty other_URLs, a draft with its suggestions (v1.2 write_post)', async () => {
    const published = await api('POST', '/sites/1/posts/new?context=edit', 'admin', { title: 'Lighthouse open' });
    expect(published).toMatchObject({ status: 200, body: { status: 'publish', other_URLs: {} } });
    const draft = await api('POST', '/sites/1/posts/new?context=edit', 'admin', {
      title: 'Lighthouse draft',
      status: 'draft',
    });
    expect(draft.body.other_URLs).toMatchObject({ suggested_slug: 'lighthouse-draft' });
    // v1.1 suggests for a published new post too (iOS reads `other_URLs.suggested_slug`).
    const v11 = await api('POST', '/sites/1/posts/new?context=edit', 'admin', { title: 'Lighthouse closed' }, 'v1.1');
    expect(v11.body.other_URLs).toMatchObject({ suggested_slug: 'lighthouse-closed' });
  });

  it('reads categories and tags as names, digits included, and takes IDs from *_by_id (Calypso save-post.js)', async () => {
    const created = await api('POST', '/sites/1/posts/new?context=edit', 'editor', {
      title: 'Harbour in 2026',
      categories: ['2026'],
      categories_by_id: [4, 'x'],
      tags: '3,harbour',
      tags_by_id: '15',
    });
    expect(created.status).toBe(200);
    // v1.1 would read 2026 and 3 as term IDs; v1.2 made them categories and tags by those names.
    expect(termNames(created.body.categories)).toEqual(['2026', 'Photography']);
    expect(termNames(created.body.tags)).toEqual(['3', 'harbour', 'travel']);
    const id = created.body.ID as number;

    const edited = await api('POST', `/sites/1/posts/${id}?context=edit`, 'editor', { tags_by_id: [13] });
    expect(termNames(edited.body.tags)).toEqual(['boats']);
    expect(termNames(edited.body.categories)).toEqual(['2026', 'Photography']);
    // Categories that come out empty are the default one.
    const emptied = await api('POST', `/sites/1/posts/${id}?context=edit`, 'editor', { categories_by_id: ['nothing'] });
    expect(termNames(emptied.body.categories)).toEqual(['Uncategorized']);
  });

  it('adds a new tag for anyone who may write posts (assign_terms), a new category only for who may edit terms, as v1.1', async () => {
    // The apps' normal save: WordPressKit `RemotePostUpdateParametersWordPressComEncoder` sends `terms: {post_tag: [...]}`.
    const v12 = await api('POST', '/sites/1/posts/new?context=edit', 'author', {
      title: 'Gull season',
      terms: { post_tag: ['new-tag', 'harbour'], category: ['Brand new category'] },
    });
    expect(v12.status).toBe(200);
    expect(termNames(v12.body.tags)).toEqual(['harbour', 'new-tag']);
    // An author has no `manage_categories`: the unknown category is skipped, and the post gets the default one.
    expect(termNames(v12.body.categories)).toEqual(['Uncategorized']);
    const edited = await api('POST', `/sites/1/posts/${v12.body.ID}?context=edit`, 'author', {
      terms: { post_tag: ['new-tag', 'another-new-tag'] },
    });
    expect(termNames(edited.body.tags)).toEqual(['another-new-tag', 'new-tag']);
    const v11 = await api(
      'POST',
      '/sites/1/posts/new?context=edit',
      'author',
      { title: 'Gull season', tags: ['gulls'] },
      'v1.1',
    );
    expect(termNames(v11.body.tags)).toEqual(['gulls']);
  });

  it('post_exists: a retried create (iOS saves through v1.2 with its date) answers the post the first try made', async () => {
    // What `parametersWithRemotePost:` sends for a post it publishes (PostServiceRemoteREST.m).
    const ios = {
      title: 'Ferry timetable',
      content: "Boats at nine. [gallery ids='201,202' columns=2]",
      type: 'post',
      date: '2026-02-01T09:30:00+0000',
      status: 'publish',
      parent: 'false',
      sticky: 'false',
      terms: { post_tag: ['ferry'] },
    };
    const first = await api('POST', '/sites/1/posts/new?context=edit', 'author', ios);
    expect(first.status).toBe(200);
    const count = async () =>
      (await api('GET', '/sites/1/posts/?status=publish&search=Ferry%20timetable&fields=ID', 'author')).body.found;
    expect(await count()).toBe(1);
    // The answer never came; the app sends it again (the gallery's attachments uploaded again have new IDs).
    const retried = await api('POST', '/sites/1/posts/new?context=edit', 'author', {
      ...ios,
      content: "Boats at nine. [gallery ids='305' columns=2]",
      sticky: 'true',
      metadata: [{ key: 'mood', value: 'twice', operation: 'add' }],
    });
    expect(retried.status).toBe(200);
    // The same post as it stands: nothing of the retry is written (not its gallery IDs, sticky or metadata).
    expect(retried.body).toEqual(first.body);
    expect(await count()).toBe(1);

    // Anything different is a new post: another title, content, date, type; a draft is never matched.
    for (const other of [
      { title: 'Ferry timetable (winter)' },
      { content: 'Boats at ten.' },
      { date: '2026-02-01T09:30:01+0000' },
    ]) {
      const created = await api('POST', '/sites/1/posts/new?context=edit', 'author', { ...ios, ...other });
      expect(created.body.ID, JSON.stringify(other)).not.toBe(first.body.ID);
    }
    const draft = { title: 'Ferry notes', content: 'Draft.', date: '2026-02-02T09:00:00+0000', status: 'draft' };
    const draftFirst = await api('POST', '/sites/1/posts/new', 'author', draft);
    expect((await api('POST', '/sites/1/posts/new', 'author', draft)).body.ID).not.toBe(draftFirst.body.ID);
    // Another user's identical post is not theirs to be answered: the editor gets a post of their own.
    const editors = await api('POST', '/sites/1/posts/new?context=edit', 'editor', ios);
    expect(editors.body.ID).not.toBe(first.body.ID);
    expect(editors.body.author.ID).not.toBe(first.body.author.ID);
    // v1.1 has no such check: the same body makes a second post there.
    const v11 = await api('POST', '/sites/1/posts/new', 'author', ios, 'v1.1');
    expect(v11.body.ID).not.toBe(first.body.ID);
  });

  it('post_exists: identical creates arriving together make one post, and every answer names it', async () => {
    // A client that sends its create again before the first answer came (the lookup and the insert are one step).
    const ios = {
      title: 'Tide tables, all at once',
      content: 'High water at noon.',
      type: 'post',
      date: '2026-03-01T12:00:00+0000',
      status: 'publish',
    };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api('POST', '/sites/1/posts/new?context=edit', 'author', ios)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const ids = new Set(answers.map((answer) => answer.body.ID as number));
    expect(ids.size).toBe(1);
    const stored = await harness.server.built.db
      .selectFrom('posts')
      .select('id')
      .where('site_id', '=', 1)
      .where('title', '=', ios.title)
      .execute();
    expect(stored.map((row) => row.id)).toEqual([...ids]);
  });

  it('keeps v1.1\u2019s checks: a token, the right to edit, something to write', async () => {
    expect(await api('POST', '/sites/1/posts/new', undefined, { title: 'x' })).toMatchObject({ status: 401 });
    expect(await api('POST', '/sites/1/posts/108', 'author', { title: 'x' })).toMatchObject({
      status: 403,
      body: { message: 'User cannot edit post' },
    });
    expect(await api('POST', '/sites/1/posts/new', 'admin', { status: 'draft' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_input' },
    });
  });
});

describe('v1.2 and the endpoint layer', () => {
  it('answers CORS and preflights under /rest/v1.2 as under /rest/v1.1', async () => {
    const read = await harness.call(`${harness.server.url}/rest/v1.2/sites/1/posts/108`, { headers: { Origin: APP } });
    await read.arrayBuffer();
    expect(read.headers.get('access-control-allow-origin')).toBe(APP);
    const preflight = await fetch(`${harness.server.url}/rest/v1.2/sites/1/posts/new`, {
      method: 'OPTIONS',
      headers: {
        Origin: APP,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(200);
    expect(await preflight.text()).toBe('');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    const other = await harness.call(`${harness.server.url}/rest/v1.2/sites/1/posts/108`, {
      headers: { Origin: 'http://other.example' },
    });
    await other.arrayBuffer();
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
