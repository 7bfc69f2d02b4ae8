import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingMigrations } from '../../../src/services/publishing/store/migrations.js';
import { insertPosts, list, postRow, read, startPublishing, type PublishingTestServer, savePost } from './support.js';

/**
 * Issue 42, items 1, 8 and 11: what a writer without the right to it cannot
 * do to a reader. Post HTML is filtered as the platform's kses filters it for
 * users without `unfiltered_html`; a page's parent is shown only to those who
 * may read it, and must be readable to the writer; `sticky` and `date` are a
 * publisher's.
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  // SITE_CACHE_MS=0: the custom roles below apply at once.
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  const db = harness.server.built.db;
  // Two custom roles with an author's capabilities, one of them with unfiltered_html too.
  const authorCaps = [
    'read',
    'publish_posts',
    'edit_posts',
    'edit_published_posts',
    'delete_posts',
    'delete_published_posts',
  ];
  await db
    .insertInto('role_capabilities')
    .values([
      ...authorCaps.map((capability) => ({ role: 'writer', capability })),
      ...[...authorCaps, 'unfiltered_html'].map((capability) => ({ role: 'trusted-writer', capability })),
    ])
    .execute();
  await db
    .updateTable('site_roles')
    .set({ role: 'trusted-writer' })
    .where('site_id', '=', 1)
    .where('user_id', '=', 5)
    .execute();
  await db
    .updateTable('site_roles')
    .set({ role: 'writer' })
    .where('site_id', '=', 1)
    .where('user_id', '=', 6)
    .execute();
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber', 'moderator'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const save = (login: string, target: 'new' | number, body: unknown, query = '?context=edit') =>
  savePost(harness, tokens[login], target, body, { query }).then(({ status, body }) => ({ status, body }));

const REPRO = {
  title: 'Hello<img src=x onerror=alert(1)>',
  content: '<script>alert(document.cookie)</script><a href="javascript:alert(2)">x</a>',
  excerpt: '<svg onload=alert(3)>',
};

/** Whatever of a post object a browser could run: script tags, event handlers, `javascript:` URLs, SVG. */
const runnable = (post: Record<string, unknown>) =>
  JSON.stringify([post.title, post.content, post.excerpt]).match(/<script|onerror|onload|javascript:|<svg/gi) ?? [];

describe('post HTML of a writer without unfiltered_html (item 1)', () => {
  it('is filtered on save: the anonymous read, the list and a search show nothing that runs', async () => {
    const saved = await save('author', 'new', { ...REPRO, status: 'publish' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ title: 'Hello', content: '<a>x</a>', excerpt: '' });
    const id = saved.body.ID as number;
    expect(await harness.store.findPost(1, id)).toMatchObject({ title: 'Hello', content: '<a>x</a>', excerpt: '' });

    const anonymous = await read(harness, undefined, 1, id);
    expect(anonymous.status).toBe(200);
    expect(runnable(anonymous.body)).toEqual([]);
    expect(anonymous.body.title).toBe('Hello');
    expect(anonymous.body.content).toContain('<a>x</a>');

    const listed = await list(harness, undefined, 1, { number: 100 });
    const inList = (listed.body.posts as Record<string, unknown>[]).find((post) => post.ID === id)!;
    expect(inList).toBeDefined();
    expect(runnable(inList)).toEqual([]);
    const searched = await list(harness, undefined, 1, { search: 'script' });
    for (const post of searched.body.posts as Record<string, unknown>[]) expect(runnable(post)).toEqual([]);
  });

  it('keeps what the platform allows in posts: tags, attributes and protocols', async () => {
    const content =
      '<p style="text-align:center" class="lead">Hi <a href="https://example.com/a" title="t" target="_blank">a</a> ' +
      '<a href="mailto:a@example.com">m</a> <img src="https://example.com/i.jpg" alt="i" width="10" onclick="x()"></p>[gallery ids="1,2"]';
    const { body } = await save('author', 'new', {
      title: '<em>Tide</em> <b>tables</b> <span>x</span>',
      content,
      status: 'draft',
    });
    expect(body.content).toBe(
      '<p style="text-align:center" class="lead">Hi <a href="https://example.com/a" title="t" target="_blank">a</a> ' +
        '<a href="mailto:a@example.com">m</a> <img src="https://example.com/i.jpg" alt="i" width="10" /></p>[gallery ids="1,2"]',
    );
    // The title keeps the platform's title tags only (`$allowedtags`): no span.
    expect(body.title).toBe('<em>Tide</em> <b>tables</b> x');
  });

  it('filters edits, and a contributor\u2019s pending post reaches the reviewing editor without script', async () => {
    const { body: pending } = await save('contributor', 'new', { ...REPRO, status: 'publish' });
    expect(pending.status).toBe('pending');
    expect(runnable(pending)).toEqual([]);
    const edited = await save('contributor', pending.ID, {
      content: '<p onmouseover="steal()">Fish</p><iframe src="https://evil.example"></iframe>',
    });
    expect(edited.body.content).toBe('<p>Fish</p>');
    const review = await read(harness, tokens.editor, 1, pending.ID, { context: 'edit' });
    expect(review.status).toBe(200);
    expect(runnable(review.body)).toEqual([]);
    expect(review.body.content).toBe('<p>Fish</p>');
  });

  it('keeps what administrators, editors and a custom role with unfiltered_html send, and filters a custom role without it', async () => {
    for (const login of ['admin', 'editor', 'subscriber' /* trusted-writer */]) {
      const { status, body } = await save(login, 'new', { ...REPRO, status: 'draft' });
      expect(status).toBe(200);
      expect({ login, title: body.title, content: body.content, excerpt: body.excerpt }).toEqual({ login, ...REPRO });
    }
    const writer = await save('moderator' /* writer */, 'new', { ...REPRO, status: 'draft' });
    expect(writer.status).toBe(200);
    expect(runnable(writer.body)).toEqual([]);
  });

  it('filters posts stored before the filter by users without unfiltered_html when read, and when saved again', async () => {
    await insertPosts(harness, [
      postRow({ id: 4201, author_id: 2, slug: 'old-xss', ...REPRO, html_unchecked: 1 }),
      postRow({ id: 4202, author_id: 1, slug: 'old-admin', ...REPRO }),
    ]);
    const old = await read(harness, undefined, 1, 4201);
    expect(runnable(old.body)).toEqual([]);
    expect(runnable((await read(harness, tokens.admin, 1, 4201, { context: 'edit' })).body)).toEqual([]);
    const searched = await list(harness, undefined, 1, { search: 'script' });
    expect((searched.body.posts as Record<string, unknown>[]).map((post) => post.ID)).toContain(4201);
    for (const post of searched.body.posts as Record<string, unknown>[]) {
      if (post.ID !== 4202) expect(runnable(post)).toEqual([]);
    }
    // An administrator's post is the administrator's to keep as written.
    expect((await read(harness, tokens.admin, 1, 4202, { context: 'edit' })).body.content).toBe(REPRO.content);

    // The next save (an editor's, of the title only) filters what it leaves as stored, and clears the mark.
    const saved = await save('editor', 4201, { title: 'Checked' });
    expect(saved.body).toMatchObject({ title: 'Checked', content: '<a>x</a>', excerpt: '' });
    expect(await harness.store.findPost(1, 4201)).toMatchObject({ content: '<a>x</a>', htmlUnchecked: false });
  });
});

describe('a page\u2019s parent (item 8)', () => {
  beforeAll(async () => {
    await insertPosts(harness, [
      postRow({ id: 4301, type: 'page', status: 'private', slug: 'secret-plans', title: 'Secret plans' }),
      postRow({ id: 4302, type: 'page', status: 'draft', slug: '', title: 'Draft plans' }),
      postRow({
        id: 4303,
        type: 'page',
        status: 'publish',
        slug: 'locked-plans',
        title: 'Locked plans',
        password: 'pw',
      }),
      postRow({ id: 4304, type: 'page', status: 'publish', slug: 'child-of-secret', title: 'Child', parent_id: 4301 }),
      postRow({
        id: 4305,
        type: 'page',
        status: 'publish',
        slug: 'child-of-locked',
        title: 'Child 2',
        parent_id: 4303,
      }),
      postRow({
        id: 4306,
        type: 'page',
        status: 'draft',
        slug: '',
        title: 'Author page under secret',
        author_id: 2,
        parent_id: 4301,
      }),
    ]);
  });

  it('must be a post of the same type the writer may read', async () => {
    for (const parent of [4301, 4302, 4303, 108, 999_999]) {
      const refused = await save('author', 'new', { title: `Under ${parent}`, type: 'page', parent });
      expect({ parent, ...refused }).toEqual({
        parent,
        status: 400,
        body: {
          error: 'invalid_input',
          message: 'Invalid body field parent: no such post of the same type that you may read',
        },
      });
    }
    const allowed = await save('author', 'new', { title: 'Under About', type: 'page', parent: 112 });
    expect(allowed.body.parent).toMatchObject({ ID: 112, type: 'page' });
    // An edit may not make a page its own parent, nor move it under a page the writer may not read.
    expect((await save('author', allowed.body.ID, { parent: allowed.body.ID })).status).toBe(400);
    expect((await save('author', allowed.body.ID, { parent: 4301 })).status).toBe(400);
    // The parent a page already has (an administrator put the author's page there) may be sent back unchanged; it stays hidden.
    const kept = await save('author', 4306, { title: 'Still under secret', parent: 4301 });
    expect(kept).toMatchObject({ status: 200, body: { title: 'Still under secret', parent: false } });
    expect(await harness.store.findPost(1, 4306)).toMatchObject({ parentId: 4301 });
    // Whoever may read it may: the administrator under the private page.
    expect(
      (await save('admin', 'new', { title: 'Admin under secret', type: 'page', parent: 4301 })).body.parent,
    ).toMatchObject({ ID: 4301, title: 'Secret plans' });
  });

  it('is shown only to a caller who may read it', async () => {
    for (const id of [4304, 4305]) {
      const anonymous = await read(harness, undefined, 1, id);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.parent).toBe(false);
      expect(JSON.stringify(anonymous.body)).not.toMatch(/Secret plans|Locked plans/);
      expect((await read(harness, tokens.author, 1, id)).body.parent).toBe(false);
    }
    const listed = await list(harness, undefined, 1, { type: 'page', number: 100 });
    const children = (listed.body.posts as Record<string, unknown>[]).filter(
      (post) => post.ID === 4304 || post.ID === 4305,
    );
    expect(children.map((post) => post.parent)).toEqual([false, false]);
    expect((await read(harness, tokens.admin, 1, 4304)).body.parent).toMatchObject({
      ID: 4301,
      type: 'page',
      title: 'Secret plans',
    });
    expect((await read(harness, tokens.editor, 1, 4305)).body.parent).toMatchObject({
      ID: 4303,
      title: 'Locked plans',
    });
  });
});

describe('sticky and date (item 11)', () => {
  it('sticky needs publish_posts or edit_others_posts', async () => {
    const refused = await save('contributor', 'new', { title: 'Stick me', sticky: true });
    expect(refused).toEqual({
      status: 403,
      body: { error: 'unauthorized', message: 'Sorry, you are not allowed to make posts sticky.' },
    });
    const { body: draft } = await save('contributor', 'new', { title: 'Not sticky', sticky: false, status: 'draft' });
    expect(draft.sticky).toBe(false);
    expect((await save('contributor', draft.ID, { sticky: 1 })).status).toBe(403);
    expect((await save('author', 'new', { title: 'Author sticky', sticky: true })).body.sticky).toBe(true);
  });

  it('a contributor\u2019s date does not apply; the post is dated when an editor publishes it', async () => {
    const before = Date.now();
    const { body: pending } = await save('contributor', 'new', {
      title: 'Backdated',
      status: 'publish',
      date: '2001-01-01T00:00:00Z',
    });
    expect(pending.status).toBe('pending');
    expect(Date.parse(pending.date)).toBeGreaterThanOrEqual(before - 1000);
    const edited = await save('contributor', pending.ID, { date: '2001-01-01T00:00:00Z', title: 'Backdated again' });
    expect(edited.body.date).toBe(pending.date);
    const beforePublish = Date.now();
    const published = await save('editor', pending.ID, { status: 'publish' });
    expect(published.body.status).toBe('publish');
    expect(Date.parse(published.body.date)).toBeGreaterThanOrEqual(beforePublish - 1000);
    // A publisher's date applies.
    expect((await save('author', 'new', { title: 'Old news', date: '2001-01-01T00:00:00Z' })).body.date).toBe(
      '2001-01-01T00:00:00+00:00',
    );
  });
});

describe('migration 09-unfiltered-html', () => {
  it('marks the posts whose author has no unfiltered_html, which are then filtered when read', async () => {
    const migration = publishingMigrations.find((m) => m.name === '09-unfiltered-html')!;
    // The schema of before the migration, which the typed tables no longer describe.
    const db = harness.server.built.db as Kysely<any>;
    await migration.down!(db);
    // As a store before the migration held them: no html_unchecked column.
    const { html_unchecked: _unused, ...authorRow } = postRow({ id: 4401, author_id: 2, slug: 'before-09', ...REPRO });
    const { html_unchecked: _unused2, ...editorRow } = postRow({
      id: 4402,
      author_id: 3,
      slug: 'before-09-editor',
      ...REPRO,
    });
    await db.insertInto('posts').values([authorRow, editorRow]).execute();
    await migration.up(db);
    expect(await harness.store.findPost(1, 4401)).toMatchObject({ htmlUnchecked: true });
    expect(await harness.store.findPost(1, 4402)).toMatchObject({ htmlUnchecked: false });
    expect(runnable((await read(harness, undefined, 1, 4401)).body)).toEqual([]);
    expect((await read(harness, tokens.admin, 1, 4402, { context: 'edit' })).body.content).toBe(REPRO.content);
  });
});
