import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANDROID_AUTOSAVE_READS, androidFetchPostQuery } from '../../fixtures/client-bodies.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * A post read for editing links, and with `meta=autosave` loads, an
 * autosave newer than the post, whoever saved it (issue 54, row 9), as the
 * platform's `get_meta()` does (`wp_get_post_autosave` of any user, newer
 * than the post): FluxC `PostRestClient.fetchPost` asks
 * `?context=edit&meta=autosave` and offers the newer autosave from
 * `meta.data.autosave`. Every answer is checked against the contract.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['author', 'editor']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login: string, body?: unknown) =>
  callJson(harness, method, `/rest/v1.1${path}`, tokens[login], body);

/** A published post of the author's, last changed an hour ago. */
async function authorsPost(): Promise<number> {
  const created = await api('POST', '/sites/1/posts/new', 'author', {
    title: 'Ferry times',
    content: 'The first ferry leaves at seven.',
    status: 'publish',
  });
  expect(created.status).toBe(200);
  const id = created.body.ID as number;
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, '.000Z');
  await harness.server.built.db.updateTable('posts').set({ modified: hourAgo }).where('id', '=', id).execute();
  return id;
}

describe('meta.links.autosave and meta=autosave (FluxC fetchPost)', () => {
  it('user A’s post, user B autosaves, A reads it with context=edit&meta=autosave and sees B’s autosave', async () => {
    const id = await authorsPost();
    const before = await api('GET', `/sites/1/posts/${id}?${androidFetchPostQuery}`, 'author');
    expect(before.status).toBe(200);
    expect(before.body.meta.links).not.toHaveProperty('autosave');
    expect(before.body.meta).not.toHaveProperty('data');

    const saved = await api('POST', `/sites/1/posts/${id}/autosave`, 'editor', {
      title: 'Ferry times (summer)',
      content: 'The first ferry leaves at six.',
      excerpt: '',
    });
    expect(saved.status).toBe(200);

    const read = await api('GET', `/sites/1/posts/${id}?${androidFetchPostQuery}`, 'author');
    expect(read.status).toBe(200);
    const self = read.body.meta.links.self as string;
    expect(read.body.meta.links.autosave).toBe(`${self}/autosave`);
    const autosave = read.body.meta.data.autosave;
    for (const key of ANDROID_AUTOSAVE_READS) expect(autosave, key).toHaveProperty(key);
    expect(autosave).toMatchObject({
      ID: saved.body.ID,
      post_ID: id,
      author_ID: 3,
      title: 'Ferry times (summer)',
      content: 'The first ferry leaves at six.',
      modified: saved.body.modified,
      preview_URL: saved.body.preview_URL,
    });
    expect(typeof autosave.ID).toBe('number');
    // The data is what the link answers.
    const linked = await api('GET', `/sites/1/posts/${id}/autosave`, 'author');
    expect(autosave).toEqual(linked.body);
    // The post itself is as it was.
    expect(read.body.title).toBe('Ferry times');

    // Without `meta=autosave` the link alone; in display context neither.
    const edit = await api('GET', `/sites/1/posts/${id}?context=edit`, 'author');
    expect(edit.body.meta.links.autosave).toBe(`${self}/autosave`);
    expect(edit.body.meta).not.toHaveProperty('data');
    const display = await api('GET', `/sites/1/posts/${id}?meta=autosave`, 'author');
    expect(display.body.meta.links).not.toHaveProperty('autosave');
    expect(display.body.meta).not.toHaveProperty('data');
  });

  it('an autosave older than the post (the post saved since) is not linked', async () => {
    const id = await authorsPost();
    await api('POST', `/sites/1/posts/${id}/autosave`, 'editor', { content: 'An older thought.' });
    const later = new Date(Date.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, '.000Z');
    await harness.server.built.db.updateTable('posts').set({ modified: later }).where('id', '=', id).execute();
    const read = await api('GET', `/sites/1/posts/${id}?${androidFetchPostQuery}`, 'author');
    expect(read.body.meta.links).not.toHaveProperty('autosave');
    expect(read.body.meta).not.toHaveProperty('data');
  });
});
