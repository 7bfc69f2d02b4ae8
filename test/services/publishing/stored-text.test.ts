import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnableIn } from '../../support/runnableHtml.js';
import { callJson, list, read, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Issue 52, items 2 and 8: every way text reaches the store filters it
 * (`domain/storedText.ts`): autosaves (in place and kept beside the post)
 * and a term's name and description, through every read that shows them.
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  // SITE_CACHE_MS=0: the custom role given below applies at once.
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown) =>
  callJson(harness, method, path, login === undefined ? undefined : tokens[login], body);

/** Whatever of an answer's texts a browser would run, as a browser parses them (`runnableIn`). */
const runnable = runnableIn;

const ATTACK = {
  title: 'Tide<img src=x onerror=alert(1)>',
  content: '<script>alert(document.cookie)</script><p onmouseover="steal()">Fish</p><img src=x onerror=alert(2)>',
  excerpt: '<svg onload=alert(3)>',
};

describe('an autosave (item 2)', () => {
  it('of a contributor\u2019s own draft is filtered as an edit is: the post, its revision, the editor\u2019s view and the published post', async () => {
    const draft = await savePost(harness, tokens.contributor, 'new', {
      title: 'Draft',
      content: 'One.',
      status: 'draft',
    });
    const id = draft.body.ID as number;
    const saved = await api('POST', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'contributor', ATTACK);
    expect(saved).toMatchObject({ status: 200, body: { ID: id } });
    const stored = await harness.store.findPost(1, id);
    expect(runnable([stored?.title, stored?.content, stored?.excerpt])).toEqual([]);
    expect(stored).toMatchObject({ title: 'Tide', content: '<p>Fish</p><img src="x" />', excerpt: '' });
    expect(runnable(await harness.store.postRevisions(id))).toEqual([]);

    const review = await read(harness, tokens.editor, 1, id, { context: 'edit' });
    expect(review.status).toBe(200);
    expect(runnable(review.body)).toEqual([]);
    const published = await savePost(harness, tokens.editor, id, { status: 'publish' });
    expect(published.status).toBe(200);
    expect(runnable((await read(harness, undefined, 1, id)).body)).toEqual([]);
    const listed = (await list(harness, undefined, 1, { number: 100 })).body.posts as Record<string, unknown>[];
    expect(listed.some((post) => post.ID === id)).toBe(true);
    expect(runnable(listed)).toEqual([]);
  });

  it('kept beside a contributor\u2019s pending post is filtered: the editor reviewing it reads nothing that runs', async () => {
    const pending = await savePost(harness, tokens.contributor, 'new', {
      title: 'Pending',
      content: 'One.',
      status: 'pending',
    });
    const id = pending.body.ID as number;
    const saved = await api('POST', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'contributor', ATTACK);
    expect(saved.status).toBe(200);
    expect(saved.body.ID).not.toBe(id);
    const autosave = await api('GET', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'editor');
    expect(autosave.status).toBe(200);
    expect(autosave.body).toMatchObject({ title: 'Tide', content: '<p>Fish</p><img src="x" />', excerpt: '' });
    expect(runnable(autosave.body)).toEqual([]);
    // Fields the autosave does not send come from the post, filtered all the same.
    const partial = await api('POST', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'contributor', {
      excerpt: '<b onclick=x()>b</b>',
    });
    expect(partial.status).toBe(200);
    expect((await api('GET', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'editor')).body).toMatchObject({
      content: '<p>Fish</p><img src="x" />',
      excerpt: '<b>b</b>',
    });
  });

  it('stored before autosaves were filtered is shown filtered for its author\u2019s role', async () => {
    const pending = await savePost(harness, tokens.contributor, 'new', {
      title: 'Old',
      content: 'x',
      status: 'pending',
    });
    const id = pending.body.ID as number;
    await harness.server.built.db
      .insertInto('autosaves')
      .values({ id: 9000, post_id: id, author_id: 4, modified: new Date().toISOString(), ...ATTACK })
      .execute();
    const autosave = await api('GET', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'editor');
    expect(autosave.status).toBe(200);
    expect(autosave.body).toMatchObject({ ID: 9000, title: 'Tide', content: '<p>Fish</p><img src="x" />' });
    expect(runnable(autosave.body)).toEqual([]);
  });

  it('of an editor keeps what the editor sent (unfiltered_html)', async () => {
    const saved = await api('POST', '/rest/v1.1/sites/1/posts/108/autosave', 'editor', {
      content: '<script>ok()</script>',
    });
    expect(saved.status).toBe(200);
    expect((await api('GET', '/rest/v1.1/sites/1/posts/108/autosave', 'editor')).body.content).toBe(
      '<script>ok()</script>',
    );
  });
});

describe('a new term\u2019s name (item 8)', () => {
  it('keeps no tags, for a contributor\u2019s new tag and for a term added by an administrator', async () => {
    const saved = await savePost(harness, tokens.contributor, 'new', {
      title: 'tagged',
      content: 'x',
      status: 'draft',
      tags: '<img src=x onerror=alert(1)>Tide & <b>time</b>',
    });
    expect(saved.status).toBe(200);
    const tags = (await api('GET', '/rest/v1.1/sites/1/tags?number=1000')).body.tags as Record<string, unknown>[];
    const added = tags.find((tag) => String(tag.name).includes('Tide'));
    expect(added).toMatchObject({ name: 'Tide &amp; time', slug: 'tide-time' });
    expect(runnable(tags)).toEqual([]);
    expect(JSON.stringify(tags)).not.toMatch(/<img|<b>/);

    const created = await api('POST', '/rest/v1.1/sites/1/tags/new', 'admin', {
      name: '<script>alert(1)</script>Harbour <i>news</i>',
      description: '<b>ok</b>',
    });
    expect(created).toMatchObject({ status: 200, body: { name: 'Harbour news', description: '<b>ok</b>' } });
    const edited = await api('POST', '/rest/v1.1/sites/1/categories/slug:uncategorized', 'editor', {
      name: 'Uncategorized <img src=x onerror=alert(1)>',
    });
    expect(edited).toMatchObject({ status: 200, body: { name: 'Uncategorized' } });
  });

  it('and description are filtered for a caller without unfiltered_html (a custom role allowed to manage categories)', async () => {
    const db = harness.server.built.db;
    await db
      .insertInto('role_capabilities')
      .values(['read', 'edit_posts', 'manage_categories'].map((capability) => ({ role: 'tagger', capability })))
      .execute();
    await db
      .updateTable('site_roles')
      .set({ role: 'tagger' })
      .where('site_id', '=', 1)
      .where('user_id', '=', 5)
      .execute();
    const created = await api('POST', '/rest/v1.1/sites/1/categories/new', 'subscriber', {
      name: 'Boats',
      description: '<b onclick="x()">Boats</b><script>alert(1)</script>',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ name: 'Boats', description: '<b>Boats</b>' });
  });
});

describe('the one way into the store', () => {
  it('is storedText: no other file of the service makes a StoredText by a cast', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const root = new URL('../../../src/', import.meta.url);
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'));
    const casting: string[] = [];
    for (const file of files)
      if (/\bas\s+(?:unknown\s+as\s+)?StoredText\b/.test(await readFile(new URL(file, root), 'utf8')))
        casting.push(file);
    expect(casting).toEqual(['services/publishing/domain/storedText.ts']);
  });
});
