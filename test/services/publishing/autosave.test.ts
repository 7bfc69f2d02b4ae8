import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Autosaves (`GET` and `POST /sites/{site}/posts/{ID}/autosave`) and a
 * post's revisions with their changes (`GET /sites/{site}/post/{ID}/diffs`).
 * Request shapes: Android's FluxC `PostRestClient` (autosave: `POST
 * sites/$site/posts/$id/autosave` with `title`, `content`, `excerpt`;
 * revisions: `GET sites/$site/post/$id/diffs`, read into `RevisionsResponse`)
 * and Calypso's editor (autosave of a published post, then its preview).
 * Every answer goes through the contract checker.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown) =>
  callJson(harness, method, `/rest/v1.1${path}`, login === undefined ? undefined : tokens[login], body);

describe('autosave', () => {
  it('keeps an autosave beside a published post, leaves the post as it is, and reads it back (FluxC PostRestClient shape)', async () => {
    const before = await harness.store.findPost(1, 108);
    const saved = await api('POST', '/sites/1/posts/108/autosave', 'editor', {
      title: 'Welcome, again',
      content: 'A newer welcome.',
      excerpt: '',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ post_ID: 108, modified: expect.stringMatching(/\+00:00$/) });
    // iOS `RemotePostAutosaveResponse` decodes `ID` (an Int) and `preview_URL`; FluxC reads `ID` too.
    expect(saved.body).not.toHaveProperty('auto_ID');
    expect(typeof saved.body.ID).toBe('number');
    expect(saved.body.ID).not.toBe(108);
    // Both platform endpoints name the post in `preview_id`, not the autosave.
    expect(saved.body.preview_URL).toBe(
      'https://demo.example.com/2026/01/15/welcome-to-the-demo-site/?preview=true&preview_id=108',
    );
    expect(await harness.store.findPost(1, 108)).toEqual(before);

    const read = await api('GET', '/sites/1/posts/108/autosave', 'admin');
    expect(read).toMatchObject({
      status: 200,
      body: {
        ID: saved.body.ID,
        author_ID: 3,
        post_ID: 108,
        title: 'Welcome, again',
        content: 'A newer welcome.',
        excerpt: '',
      },
    });
    // The same user's next autosave replaces theirs; a field not given keeps what the autosave had.
    const again = await api('POST', '/sites/1/posts/108/autosave', 'editor', { content: 'Newest.' });
    expect(again.body.ID).toBe(saved.body.ID);
    expect(read.body.preview_URL).toBe(saved.body.preview_URL);
    expect((await api('GET', '/sites/1/posts/108/autosave', 'editor')).body).toMatchObject({
      title: 'Welcome, again',
      content: 'Newest.',
    });
  });

  it('saves its author\u2019s draft in place, with a revision', async () => {
    const draft = await savePost(harness, tokens.author, 'new', { title: 'Draft', content: 'One.', status: 'draft' });
    const id = draft.body.ID as number;
    const saved = await api('POST', `/sites/1/posts/${id}/autosave`, 'author', { title: 'Draft two', content: 'Two.' });
    expect(saved).toMatchObject({ status: 200, body: { ID: id, post_ID: id } });
    expect(saved.body.preview_URL).toContain('preview=true');
    expect(saved.body.preview_URL).not.toContain('preview_id');
    expect(await harness.store.findPost(1, id)).toMatchObject({ title: 'Draft two', content: 'Two.', status: 'draft' });
    expect(await harness.store.postRevisions(id)).toEqual([
      expect.objectContaining({ title: 'Draft two', content: 'Two.', authorId: 2 }),
    ]);
    expect(await api('GET', `/sites/1/posts/${id}/autosave`, 'author')).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'No autosaves exist for this post' },
    });
    // An editor's autosave of someone else's draft is kept beside it.
    const editors = await api('POST', `/sites/1/posts/${id}/autosave`, 'editor', { title: 'Edited draft' });
    expect(editors.body.ID).not.toBe(id);
    expect(editors.body.preview_URL).toContain(`preview_id=${id}`);
    expect(await harness.store.findPost(1, id)).toMatchObject({ title: 'Draft two' });
  });

  it('refuses an empty body, an unknown post, a caller who may not edit it, and no token', async () => {
    expect(await api('POST', '/sites/1/posts/108/autosave', 'editor', { status: 'draft' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', message: 'Invalid request input' },
    });
    expect(await api('POST', '/sites/1/posts/999999/autosave', 'editor', { title: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'unknown_post' },
    });
    expect(await api('POST', '/sites/1/posts/108/autosave', 'contributor', { title: 'x' })).toMatchObject({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit post' },
    });
    expect(await api('GET', '/sites/1/posts/108/autosave', 'subscriber')).toMatchObject({ status: 403 });
    expect(await api('GET', '/sites/1/posts/108/autosave')).toMatchObject({
      status: 401,
      body: { error: 'authorization_required' },
    });
    // A post of a type the site does not expose (110 is `feedback`).
    expect(await api('GET', '/sites/1/posts/110/autosave', 'admin')).toMatchObject({
      status: 404,
      body: { error: 'unknown_post' },
    });
  });
});

describe('diffs', () => {
  it('lists every revision, oldest first, with the words each changed from the one before (FluxC RevisionsResponse)', async () => {
    const created = await savePost(harness, tokens.admin, 'new', { title: 'Tides', content: 'High water at noon.' });
    const id = created.body.ID as number;
    await savePost(harness, tokens.admin, id, { content: 'High water at one.' });
    await savePost(harness, tokens.editor, id, { title: 'Tides today' });
    const { status, body } = await api('GET', `/sites/1/post/${id}/diffs`, 'editor');
    expect(status).toBe(200);
    const revisions = await harness.store.postRevisions(id);
    expect(revisions).toHaveLength(2);
    const [first, second] = revisions;
    expect(body.diffs.map((diff: { from: number; to: number }) => [diff.from, diff.to])).toEqual([
      [0, first!.id],
      [first!.id, second!.id],
    ]);
    expect(body.diffs[0].diff.post_content).toEqual([{ op: 'add', value: 'High water at one.' }]);
    expect(body.diffs[1].diff).toEqual({
      post_title: [
        { op: 'copy', value: 'Tides ' },
        { op: 'add', value: 'today' },
      ],
      post_content: [{ op: 'copy', value: 'High water at one.' }],
      totals: { add: 1, del: 0 },
    });
    expect(body.revisions[String(second!.id)]).toEqual({
      post_date_gmt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      post_modified_gmt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      post_author: '3',
      id: second!.id,
      post_content: 'High water at one.',
      post_excerpt: '',
      post_title: 'Tides today',
    });
  });

  it('counts words removed, and answers nothing to a caller who may not edit the post', async () => {
    const created = await savePost(harness, tokens.admin, 'new', {
      title: 'Boats',
      content: 'Red boats and blue boats.',
    });
    const id = created.body.ID as number;
    await savePost(harness, tokens.admin, id, { content: 'Blue boats.' });
    const { body } = await api('GET', `/sites/1/post/${id}/diffs`, 'admin');
    expect(body.diffs).toHaveLength(1);
    expect(await api('GET', `/sites/1/post/${id}/diffs`, 'author')).toMatchObject({
      status: 403,
      body: { message: 'User cannot edit post' },
    });
    await savePost(harness, tokens.admin, id, { content: 'Boats.' });
    const after = await api('GET', `/sites/1/post/${id}/diffs`, 'admin');
    expect(after.body.diffs[1].diff.totals).toEqual({ add: 1, del: 2 });
  });

  it('answers a page\u2019s revisions under /page/{ID}/diffs too, as FluxC fetchRevisions asks for a page', async () => {
    const created = await savePost(harness, tokens.admin, 'new', {
      type: 'page',
      title: 'About',
      content: 'A harbour.',
    });
    const id = created.body.ID as number;
    await savePost(harness, tokens.admin, id, { content: 'A small harbour.' });
    const page = await api('GET', `/sites/1/page/${id}/diffs`, 'editor');
    expect(page.status).toBe(200);
    expect(page.body).toEqual((await api('GET', `/sites/1/post/${id}/diffs`, 'editor')).body);
    // What FluxC's `RevisionsResponse` reads: `diffs[].from`, `to`, `diff.totals`, `revisions` keyed by ID.
    expect(page.body.diffs[0]).toMatchObject({ from: 0, to: expect.any(Number), diff: { totals: { add: 4, del: 0 } } });
    expect(page.body.revisions[String(page.body.diffs[0].to)]).toMatchObject({ post_content: 'A small harbour.' });
    expect(await api('GET', `/sites/1/page/${id}/diffs`, 'author')).toMatchObject({ status: 403 });
    expect(await api('GET', '/sites/1/page/999999/diffs', 'admin')).toMatchObject({
      status: 404,
      body: { error: 'unknown_post' },
    });
  });

  it('deletes a post\u2019s autosaves with it when it is deleted for good', async () => {
    const created = await savePost(harness, tokens.admin, 'new', { title: 'Short lived' });
    const id = created.body.ID as number;
    await api('POST', `/sites/1/posts/${id}/autosave`, 'editor', { title: 'Shorter' });
    expect(await harness.store.latestAutosave(id)).toBeDefined();
    await api('POST', `/sites/1/posts/${id}/delete`, 'admin');
    expect((await api('POST', `/sites/1/posts/${id}/delete`, 'admin')).body).toMatchObject({ status: 'deleted' });
    expect(await harness.store.latestAutosave(id)).toBeUndefined();
  });
});
