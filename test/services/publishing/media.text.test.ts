import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStore } from '../../../src/platform/files/fileStore.js';
import { NoSuchMediaParent } from '../../../src/services/publishing/domain/media.js';
import { storedText } from '../../../src/services/publishing/domain/storedText.js';
import { runnableIn } from '../../support/runnableHtml.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Media text reaches the store only through `storedText` (issue 52's rule,
 * docs/decisions/stored-text.md): a media item's title, caption and
 * description are filtered as a post's title, excerpt and content are for
 * the writer's role, its alt text keeps no tags, by every way in (upload
 * `attrs`, `POST /media/{id}`, v1.2's edit, a post's `media_attrs`). And an
 * item's parent is a post of its own site, checked by the store's writes
 * (`NoSuchMediaParent`), where every path passes.
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const ATTACK = {
  title: 'Tide<img src=x onerror=alert(1)>',
  caption: '<script>alert(document.cookie)</script><em onmouseover="steal()">Fish</em>',
  description: '<p onclick="x()">Boats</p><svg onload=alert(3)>',
  alt: 'Boats <b onclick="x()">at dawn</b><script>alert(4)</script>',
};
const FILTERED = { title: 'Tide', caption: '<em>Fish</em>', description: '<p>Boats</p>', alt: 'Boats at dawn' };

const png = (width: number) =>
  sharp({ create: { width, height: width, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

async function postForm(login: string, path: string, form: FormData) {
  const response = await harness.call(`${harness.server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tokens[login]}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** An upload of one PNG with `attrs[0]`. */
async function upload(login: string, attrs: Record<string, string>) {
  const form = new FormData();
  form.append('media[]', new Blob([new Uint8Array(await png(6))], { type: 'image/png' }), 'picture.png');
  for (const [name, value] of Object.entries(attrs)) form.append(`attrs[0][${name}]`, value);
  return postForm(login, '/rest/v1.1/sites/1/media/new', form);
}

const mediaPath = (id: number, version = '1.1') => `/rest/v${version}/sites/1/media/${id}`;

/** The item as every read shows it: v1.1, v1.2 and the list. */
async function everyRead(id: number) {
  const v11 = await callJson(harness, 'GET', mediaPath(id));
  const v12 = await callJson(harness, 'GET', mediaPath(id, '1.2'));
  const listed = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media?number=100', tokens.editor);
  return [v11.body, v12.body, (listed.body.media as Record<string, unknown>[]).find((item) => item.ID === id)];
}

/** The keys of every file stored for site 1. */
async function storedFiles(): Promise<string[]> {
  const storage = harness.server.config.publishing.media.storage;
  if (storage.kind !== 'file') throw new Error('the test server keeps media on the local disk');
  const keys: string[] = [];
  for await (const file of localFileStore(storage.path).list('media/1/')) keys.push(file.key);
  return keys.sort();
}

/** How many items site 1 has. */
const itemCount = async () =>
  (await harness.store.listMedia({ siteId: 1, number: 1, offset: 0, order: 'DESC', orderBy: 'ID' })).found;

describe('media text is filtered as a post’s (an author: no unfiltered_html)', () => {
  it('sent as upload attrs: stored and read back with nothing that runs', async () => {
    const uploaded = await upload('author', ATTACK);
    expect(uploaded.status).toBe(200);
    const [item] = uploaded.body.media;
    expect(item).toMatchObject(FILTERED);
    const stored = await harness.store.findMedia(1, item.ID);
    expect(stored).toMatchObject(FILTERED);
    for (const read of await everyRead(item.ID)) expect(read).toMatchObject(FILTERED);
    expect(runnableIn(await everyRead(item.ID))).toEqual([]);
  });

  it('sent to POST /media/{id} and to v1.2’s edit (attributes with a new file)', async () => {
    const [item] = (await upload('author', { title: 'Plain' })).body.media;
    const updated = await callJson(harness, 'POST', mediaPath(item.ID), tokens.author, ATTACK);
    expect(updated).toMatchObject({ status: 200, body: FILTERED });
    expect(await harness.store.findMedia(1, item.ID)).toMatchObject(FILTERED);

    const form = new FormData();
    form.append('media', new Blob([new Uint8Array(await png(7))], { type: 'image/png' }), 'again.png');
    for (const [name, value] of Object.entries(ATTACK)) form.append(name, `${value} 2`);
    const edited = await postForm('author', `/rest/v1.2/sites/1/media/${item.ID}/edit`, form);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Tide 2', caption: '<em>Fish</em> 2', alt: 'Boats at dawn 2' });
    expect(runnableIn(await everyRead(item.ID))).toEqual([]);
  });

  it('sent as a post’s media_attrs with its media', async () => {
    const form = new FormData();
    form.append('title', 'With a picture');
    form.append('status', 'draft');
    form.append('media[]', new Blob([new Uint8Array(await png(5))], { type: 'image/png' }), 'inline.png');
    for (const [name, value] of Object.entries(ATTACK)) form.append(`media_attrs[0][${name}]`, value);
    const created = await postForm('author', '/rest/v1.2/sites/1/posts/new', form);
    expect(created.status).toBe(200);
    const attached = await callJson(
      harness,
      'GET',
      `/rest/v1.1/sites/1/media?post_ID=${created.body.ID}`,
      tokens.author,
    );
    expect(attached.body.media).toEqual([expect.objectContaining(FILTERED)]);
  });

  it('kept as sent for an editor (unfiltered_html), but alt text keeps no tags for anyone', async () => {
    const [item] = (await upload('editor', ATTACK)).body.media;
    expect(item).toMatchObject({ title: ATTACK.title, caption: ATTACK.caption, alt: 'Boats at dawn' });
    const updated = await callJson(harness, 'POST', mediaPath(item.ID), tokens.admin, { alt: '<i>x</i>' });
    expect(updated.body.alt).toBe('x');
  });
});

describe('an item’s parent is a post of its own site, checked by the store', () => {
  // Post 120 is a post of site 2: it exists, but not in site 1.
  const OTHER_SITE_POST = '120';

  it('upload attrs: 400, and neither a row nor a file is left', async () => {
    const before = await storedFiles();
    const found = await itemCount();
    const refused = await upload('author', { title: 'Lost', parent_id: OTHER_SITE_POST });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    expect(await itemCount()).toBe(found);
    expect(await storedFiles()).toEqual(before);
  });

  it('POST /media/{id} and v1.2’s edit: 400, the item unchanged; a post of the site is taken', async () => {
    const [item] = (await upload('author', { title: 'Kept' })).body.media;
    const refused = await callJson(harness, 'POST', mediaPath(item.ID), tokens.author, {
      title: 'Moved',
      parent_id: OTHER_SITE_POST,
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    const form = new FormData();
    form.append('parent_id', OTHER_SITE_POST);
    form.append('title', 'Moved');
    const before = await storedFiles();
    form.append('media', new Blob([new Uint8Array(await png(8))], { type: 'image/png' }), 'moved.png');
    const edit = await postForm('author', `/rest/v1.2/sites/1/media/${item.ID}/edit`, form);
    expect(edit).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    expect(await storedFiles()).toEqual(before);
    const attributesOnly = new FormData();
    attributesOnly.append('parent_id', OTHER_SITE_POST);
    expect((await postForm('author', `/rest/v1.2/sites/1/media/${item.ID}/edit`, attributesOnly)).status).toBe(400);
    expect(await harness.store.findMedia(1, item.ID)).toMatchObject({ title: 'Kept', postId: null, url: item.URL });

    const attached = await callJson(harness, 'POST', mediaPath(item.ID), tokens.author, { parent_id: 108 });
    expect(attached).toMatchObject({ status: 200, body: { post_ID: 108 } });
    const detached = await callJson(harness, 'POST', mediaPath(item.ID), tokens.author, { parent_id: 0 });
    expect(detached).toMatchObject({ status: 200, body: { post_ID: 0 } });
  });

  it('is the store’s own check: a write naming another site’s post throws and writes nothing', async () => {
    const title = storedText('title', 'Direct', new Set());
    const none = storedText('content', '', new Set());
    const write = harness.store.insertMedia({
      siteId: 1,
      quotaBytes: Number.MAX_SAFE_INTEGER,
      authorId: 2,
      date: new Date().toISOString(),
      url: 'http://files.invalid/x.png',
      file: {
        key: 'media/1/0000000000000077/x.png',
        file: 'x.png',
        mimeType: 'image/png',
        bytes: 1,
        width: 1,
        height: 1,
        created: new Date().toISOString(),
      },
      attributes: { title, caption: none, description: none, alt: none, postId: 120 },
    });
    await expect(write).rejects.toBeInstanceOf(NoSuchMediaParent);
    expect(await harness.store.findMediaFile('media/1/0000000000000077/x.png')).toBeUndefined();
    const [item] = (await upload('author', {})).body.media;
    await expect(harness.store.updateMedia(1, item.ID, { postId: 120 }, item.date)).rejects.toBeInstanceOf(
      NoSuchMediaParent,
    );
    const file = {
      key: 'media/1/0000000000000078/y.png',
      file: 'y.png',
      mimeType: 'image/png',
      bytes: 1,
      width: 1,
      height: 1,
      created: new Date().toISOString(),
    };
    await expect(
      harness.store.replaceMediaFile(
        1,
        item.ID,
        file,
        'http://files.invalid/y.png',
        { postId: 120 },
        item.date,
        Number.MAX_SAFE_INTEGER,
      ),
    ).rejects.toBeInstanceOf(NoSuchMediaParent);
    expect(await harness.store.findMedia(1, item.ID)).toMatchObject({ postId: null, url: item.URL });
    expect(await harness.store.mediaFiles(1, item.ID)).toHaveLength(1);
  });
});
