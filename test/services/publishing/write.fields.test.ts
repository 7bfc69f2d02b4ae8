import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, startPublishing, type PublishingTestServer, savePost } from './support.js';

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

/** Saves as `login`, with `context=edit`. */
const save = (login: string, target: 'new' | number, body: unknown) => savePost(harness, tokens[login], target, body);

const names = (terms: Record<string, unknown>) => Object.keys(terms);
/** The post's metadata as key → value, in ID order (protected keys too: the tests read as the admin, with context=edit). */
const metadataOf = (post: Record<string, any>) =>
  post.metadata === false
    ? []
    : (post.metadata as { key: string; value: unknown }[]).map(({ key, value }) => [key, value]);

/** A new post of `login`'s, and its ID. */
async function newPost(login: string, fields: Record<string, unknown> = {}) {
  const { status, body } = await save(login, 'new', { title: `A post of ${login}`, status: 'draft', ...fields });
  expect(status).toBe(200);
  return body;
}

describe('categories and tags by name', () => {
  it('sets existing terms by name, slug or ID, adds the missing ones, and the post object shows them', async () => {
    const post = await newPost('admin', {
      categories: 'News, photography,Brand new',
      tags: ['harbour', 13, 'Fresh tag'],
    });
    expect(names(post.categories)).toEqual(['Brand new', 'News', 'Photography']);
    expect(names(post.tags)).toEqual(['boats', 'Fresh tag', 'harbour']);
    expect(post.categories['Brand new']).toMatchObject({ slug: 'brand-new', parent: 0, post_count: 0 });
    expect(post.terms.category).toEqual(post.categories);
    // The same on a read, and the new terms are the site's: a second post finds them.
    expect((await read(harness, tokens.admin, 1, post.ID, { context: 'edit' })).body.categories).toEqual(
      post.categories,
    );
    const second = await newPost('admin', { categories: ['brand new'], tags: 'fresh-tag' });
    expect(second.categories['Brand new'].ID).toBe(post.categories['Brand new'].ID);
    expect(second.tags['Fresh tag'].ID).toBe(post.tags['Fresh tag'].ID);
  });

  it('replace the post\u2019s terms of the field\u2019s taxonomy only; an empty tags field clears them, empty categories are Uncategorized', async () => {
    const post = await newPost('admin', { categories: 'News', tags: 'harbour,boats', format: 'aside' });
    const edited = await save('admin', post.ID, { tags: 'dawn' });
    expect(names(edited.body.tags)).toEqual(['dawn']);
    expect(names(edited.body.categories)).toEqual(['News']);
    expect(edited.body.format).toBe('aside');
    const cleared = await save('admin', post.ID, { tags: '', categories: [] });
    expect(cleared.body.tags).toEqual({});
    expect(names(cleared.body.categories)).toEqual(['Uncategorized']);
  });

  it('gives a new post without categories the site’s default category (Uncategorized), as wp_insert_post does; not a page, and not an edit', async () => {
    const post = await newPost('author', { tags: 'harbour' });
    expect(names(post.categories)).toEqual(['Uncategorized']);
    expect(post.categories.Uncategorized).toMatchObject({ ID: 1, slug: 'uncategorized' });
    expect(post.terms.category).toEqual(post.categories);
    expect((await read(harness, tokens.admin, 1, post.ID, { context: 'edit' })).body.categories).toEqual(
      post.categories,
    );
    const page = await newPost('admin', { type: 'page' });
    expect(page.categories).toEqual({});
    const named = await newPost('admin', { categories: 'News', tags: 'harbour' });
    const edited = await save('admin', named.ID, { title: 'Retitled' });
    expect(names(edited.body.categories)).toEqual(['News']);
  });

  it('skips an ID the site has no term for, and a term of another site', async () => {
    const post = await newPost('admin', { categories: [3, 999, 30] });
    expect(names(post.categories)).toEqual(['News']);
  });

  it('adds a category only for a caller with manage_categories (editors); an author\u2019s new category is skipped', async () => {
    const byEditor = await newPost('editor', { categories: 'Editor picks' });
    expect(names(byEditor.categories)).toEqual(['Editor picks']);
    const byAuthor = await newPost('author', { categories: 'Author picks, News' });
    expect(names(byAuthor.categories)).toEqual(['News']);
    const onlyNew = await newPost('author', { categories: 'Author picks' });
    expect(names(onlyNew.categories)).toEqual(['Uncategorized']);
  });

  it('adds a tag for anyone who may write posts (a contributor too)', async () => {
    const post = await newPost('contributor', { tags: 'contributed' });
    expect(names(post.tags)).toEqual(['contributed']);
  });

  it('leave the terms of a page alone (pages have no categories or tags)', async () => {
    const page = await newPost('admin', { type: 'page', categories: 'News', tags: 'harbour' });
    expect(page.categories).toEqual({});
    expect(page.tags).toEqual({});
  });
});

describe('format', () => {
  it('sets the format, `standard` and `default` take it away, and the read shows it', async () => {
    const post = await newPost('author', { format: 'quote' });
    expect(post.format).toBe('quote');
    expect(names(post.terms.post_format)).toEqual(['Quote']);
    expect((await save('author', post.ID, { format: 'gallery' })).body.format).toBe('gallery');
    expect((await read(harness, tokens.author, 1, post.ID)).body.format).toBe('gallery');
    expect((await save('author', post.ID, { format: 'standard' })).body).toMatchObject({
      format: 'standard',
      terms: { post_format: {} },
    });
    await save('author', post.ID, { format: 'link' });
    expect((await save('author', post.ID, { format: 'default' })).body.format).toBe('standard');
  });

  it('reads a format the platform does not have as the default on a new post, and ignores it on an edit (cast_and_filter)', async () => {
    const { status, body } = await save('author', 'new', { title: 'Odd', format: 'poem' });
    expect(status).toBe(200);
    expect(body.format).toBe('standard');
    const aside = await newPost('author', { format: 'aside' });
    const edited = await save('author', aside.ID, { title: 'Still an aside', format: 'poem' });
    expect(edited.body).toMatchObject({ title: 'Still an aside', format: 'aside' });
  });
});

describe('metadata', () => {
  it('adds, updates (by key, by ID, by previous value) and deletes (by key, by ID), as the platform applies each operation', async () => {
    const post = await newPost('admin', {
      metadata: [
        { key: 'mood', value: 'calm', operation: 'add' },
        { key: 'mood', value: 'sunny', operation: 'add' },
        { key: 'flag', value: 'true' },
      ],
    });
    expect(metadataOf(post)).toEqual([
      ['mood', 'calm'],
      ['mood', 'sunny'],
      ['flag', true],
    ]);

    const byPrevious = await save('admin', post.ID, {
      metadata: [{ key: 'mood', previous_value: 'sunny', value: 'stormy' }],
    });
    expect(metadataOf(byPrevious.body)).toEqual([
      ['mood', 'calm'],
      ['mood', 'stormy'],
      ['flag', true],
    ]);

    const calmId = byPrevious.body.metadata[0].id as string;
    const byId = await save('admin', post.ID, { metadata: [{ id: calmId, value: 'still' }] });
    expect(metadataOf(byId.body)).toEqual([
      ['mood', 'still'],
      ['mood', 'stormy'],
      ['flag', true],
    ]);

    const everyOfKey = await save('admin', post.ID, { metadata: [{ key: 'mood', value: 'grey' }] });
    expect(metadataOf(everyOfKey.body)).toEqual([
      ['mood', 'grey'],
      ['mood', 'grey'],
      ['flag', true],
    ]);

    const deletedById = await save('admin', post.ID, { metadata: [{ id: Number(calmId), operation: 'delete' }] });
    expect(metadataOf(deletedById.body)).toEqual([
      ['mood', 'grey'],
      ['flag', true],
    ]);

    const deletedByKey = await save('admin', post.ID, { metadata: [{ key: 'flag', operation: 'delete' }] });
    expect(metadataOf(deletedByKey.body)).toEqual([['mood', 'grey']]);
    // The read shows the same, to anyone: the key is not protected.
    expect((await read(harness, undefined, 1, post.ID)).status).toBe(403);
    await save('admin', post.ID, { status: 'publish' });
    expect(metadataOf((await read(harness, undefined, 1, post.ID)).body)).toEqual([['mood', 'grey']]);
  });

  it('skips protected keys, another post\u2019s entries, an ID with another key, and an add without a value', async () => {
    const post = await newPost('admin', { metadata: [{ key: 'note', value: 'kept' }] });
    const noteId = post.metadata[0].id as string;
    const { status, body } = await save('admin', post.ID, {
      metadata: [
        { key: '_secret', value: 'x', operation: 'add' },
        { key: '_secret', value: 'x' },
        // 508 is post 108's `mood`.
        { id: 508, value: 'hijacked' },
        { id: 508, operation: 'delete' },
        { id: noteId, key: 'other', value: 'changed' },
        { key: 'empty', value: '', operation: 'add' },
      ],
    });
    expect(status).toBe(200);
    expect(metadataOf(body)).toEqual([['note', 'kept']]);
    const demo = await read(harness, tokens.admin, 1, 108, { context: 'edit' });
    expect(metadataOf(demo.body)).toContainEqual(['mood', 'cheerful']);
    // A protected key the post already has is not changed or deleted either.
    const shoot = await save('admin', 107, {
      metadata: [
        { key: '_edit_last', operation: 'delete' },
        { key: '_edit_last', value: '9' },
      ],
    });
    expect(metadataOf(shoot.body)).toContainEqual(['_edit_last', '1']);
  });

  it('refuses a metadata operation the platform does not have, in the service\u2019s error format', async () => {
    const { status, body } = await save('admin', 'new', {
      title: 'Odd',
      metadata: [{ key: 'k', value: 'v', operation: 'replace' }],
    });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_input');
  });
});

describe('author', () => {
  it('lets an editor give a post to another user who may write posts, by login or by ID', async () => {
    const byLogin = await newPost('editor', { author: 'author' });
    expect(byLogin.author).toMatchObject({ ID: 2, login: 'author' });
    expect((await read(harness, tokens.editor, 1, byLogin.ID)).body.author).toMatchObject({ login: 'author' });
    const byId = await save('editor', byLogin.ID, { author: 4 });
    expect(byId.body.author).toMatchObject({ ID: 4, login: 'contributor' });
    expect(await harness.store.findPost(1, byLogin.ID)).toMatchObject({ authorId: 4 });
  });

  it('lets anyone name themselves, and an empty author (`""`, `0`, `"0"`, as PHP\u2019s empty()) names none', async () => {
    const post = await newPost('author', { author: 'author' });
    expect(post.author).toMatchObject({ login: 'author' });
    for (const author of ['', 0, '0'])
      expect((await newPost('author', { author })).author).toMatchObject({ login: 'author' });
  });

  it('refuses giving a post to someone else without edit_others_posts (authors, contributors)', async () => {
    for (const login of ['author', 'contributor']) {
      const { status, body } = await save(login, 'new', { title: 'Mine?', author: 'admin' });
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'unauthorized', message: "User is not allowed to publish others' posts." });
    }
    const own = await newPost('author');
    const edit = await save('author', own.ID, { author: 1 });
    expect(edit.status).toBe(403);
    expect(await harness.store.findPost(1, own.ID)).toMatchObject({ authorId: 2 });
  });

  it('refuses giving a post to a user who may not write posts on the site', async () => {
    const { status, body } = await save('editor', 'new', { title: 'For Sam', author: 'subscriber' });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'unauthorized', message: 'Assigned author cannot publish post.' });
  });

  it('answers an author who does not exist 400 invalid_author', async () => {
    // An ID past what the store keeps (and past a safe integer) names nobody too: it is never sent to the store.
    for (const author of ['nobody', 9999, '99999999999999999999']) {
      const { status, body } = await save('editor', 'new', { title: 'For nobody', author });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'invalid_author', message: 'Invalid author provided' });
    }
  });
});
