import { randomBytes } from 'node:crypto';
import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeList } from '../../../src/services/publishing/flows/postMedia.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The media library as the platform's clients use it, each request shaped
 * as its source sends it: wpcom.js `site.media.js` (`addMediaFiles`:
 * multipart `media[]` with `attrs[i][…]`; `mediaList`, `media.get`,
 * `media.update`, `media.delete`), WordPressKit `MediaServiceRemoteREST.m`
 * (`uploadMedia:`: multipart `media[]` plus `attrs[0][caption|title|alt|parent_id]`;
 * `getMediaLibrary` pages with `page_handle`; `deleteMedia:` POSTs
 * `/media/{ID}/delete`), FluxC `MediaRestClient` (`uploadMedia`: `media[0]`;
 * `fetchMediaList` with `number`, `offset`, `mime_type`; `deleteMedia`).
 */

let harness: PublishingTestServer;
/** A quota no test's files reach, for the store's writes called directly. */
const ROOMY = Number.MAX_SAFE_INTEGER;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing({ MEDIA_SITE_QUOTA_BYTES: String(40 * 1024 * 1024) });
  for (const login of ['admin', 'editor', 'author', 'contributor']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

/** A JPEG taken "on a phone": 60×40 pixels stored sideways (EXIF orientation 6), with a GPS location and a camera. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366aa' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneCo', Model: 'Phone 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#aa6633' } })
    .png()
    .toBuffer();

/** A PNG whose header says 40000×40000 pixels, in a few hundred bytes (its pixels never decoded). */
function hugePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40000, 0);
  header.writeUInt32BE(40000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** POSTs a multipart body to a media path as `login`. */
async function postForm(login: string | undefined, path: string, form: FormData) {
  const response = await harness.call(`${harness.server.url}${path}`, {
    method: 'POST',
    headers: login ? { Authorization: `Bearer ${tokens[login]}` } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const fileForm = (files: { name: string; bytes: Buffer; type?: string }[], fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const file of files)
    form.append('media[]', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

/** GETs a file URL of this deployment (contract-checked), with its bytes. */
async function getFile(url: string, headers: Record<string, string> = {}) {
  const response = await harness.call(url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const upload = async (login: string, files: Parameters<typeof fileForm>[0], fields?: Record<string, string>) =>
  postForm(login, '/rest/v1.1/sites/1/media/new', fileForm(files, fields));

describe('upload (wpcom.js addMediaFiles, WordPressKit uploadMedia:, FluxC uploadMedia)', () => {
  it('adds a photo upright, without its EXIF (GPS, camera), with the attributes of attrs[0]', async () => {
    const { status, body } = await upload('author', [{ name: 'harbour photo.JPG', bytes: await phonePhoto() }], {
      'attrs[0][caption]': 'Boats at dawn',
      'attrs[0][alt]': 'Boats',
      'attrs[0][parent_id]': '108',
    });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const [item] = body.media;
    expect(item).toMatchObject({
      post_ID: 108,
      author_ID: 2,
      file: 'harbour-photo.jpg',
      mime_type: 'image/jpeg',
      extension: 'jpg',
      title: 'harbour photo',
      caption: 'Boats at dawn',
      alt: 'Boats',
      // Turned upright: the sideways 60×40 is 40×60.
      width: 40,
      height: 60,
    });
    expect(item.URL).toMatch(/\/files\/1\/[a-f0-9]{16}\/harbour-photo\.jpg$/);
    expect(item.thumbnails.thumbnail).toBe(`${item.URL}?w=40`);
    const stored = await getFile(item.URL);
    expect(stored.status).toBe(200);
    const metadata = await sharp(stored.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([40, 60]);
    expect(stored.bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
  });

  it('types a file by its content, not its name; refuses SVG; lists each refusal in errors beside what it took', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const { status, body } = await upload('author', [
      { name: 'picture.jpg', bytes: await png(20, 10) },
      { name: 'logo.svg', bytes: svg, type: 'image/svg+xml' },
    ]);
    expect(status).toBe(200);
    expect(body.media.map((item: any) => [item.file, item.mime_type])).toEqual([['picture.png', 'image/png']]);
    expect(body.errors).toEqual([{ file: 'logo.svg', error: 'rest_upload_invalid_type', message: expect.any(String) }]);
  });

  it('refuses a 40000×40000 PNG from its header (400 errors, rest_upload_too_many_pixels)', async () => {
    const { status, body } = await upload('author', [{ name: 'huge.png', bytes: hugePng(), type: 'image/png' }]);
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{ file: 'huge.png', error: 'rest_upload_too_many_pixels', message: expect.any(String) }],
    });
  });

  it('needs upload_files: a contributor is refused (403 unauthorized), and no file is given is 400', async () => {
    const refused = await upload('contributor', [{ name: 'a.png', bytes: await png(4, 4) }]);
    expect(refused).toEqual({ status: 403, body: { error: 'unauthorized', message: 'User cannot upload media.' } });
    const empty = await postForm('author', '/rest/v1.1/sites/1/media/new', fileForm([], { 'attrs[0][title]': 'x' }));
    expect(empty).toEqual({ status: 400, body: { error: 'invalid_input', message: 'No media provided in input.' } });
  });

  it('refuses a parent_id that is no post of the site (attachment IDs resolve within the site only)', async () => {
    const { status, body } = await upload('author', [{ name: 'a.png', bytes: await png(4, 4) }], {
      'attrs[0][parent_id]': '999999',
    });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_input');
  });

  it('reads attrs as the platform does (array_values): attrs[1] without attrs[0] are the first file’s', async () => {
    const { body } = await upload(
      'author',
      [
        { name: 'one.png', bytes: await png(4, 4) },
        { name: 'two.png', bytes: await png(4, 4) },
      ],
      { 'attrs[1][caption]': 'Given as 1' },
    );
    expect(body.media.map((item: any) => [item.file, item.caption])).toEqual([
      ['one.png', 'Given as 1'],
      ['two.png', ''],
    ]);
    // A JSON body keyed by index reads the same; a JSON array keeps its places (null: none for that file).
    expect(attributeList({ '1': { caption: 'a' }, '3': { caption: 'b' } })).toEqual([
      { caption: 'a' },
      { caption: 'b' },
    ]);
    expect(attributeList([null, { caption: 'b' }])).toEqual([undefined, { caption: 'b' }]);
    expect(attributeList('x')).toEqual([]);
  });

  it('refuses media_urls of a host the deployment does not allow (rest_upload_sideload_error)', async () => {
    const { status, body } = await callJson(harness, 'POST', '/rest/v1.1/sites/1/media/new', tokens.author, {
      media_urls: ['http://169.254.169.254/latest/meta-data/'],
    });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({ error: 'rest_upload_sideload_error' });
  });
});

describe('list, read, edit, delete', () => {
  it('lists newest first with found and a next page handle; pages by handle; filters by mime_type and post_ID', async () => {
    for (const n of [1, 2, 3]) await upload('author', [{ name: `list-${n}.png`, bytes: await png(8 + n, 8) }]);
    const first = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media?number=2&search=list-', tokens.contributor);
    expect(first.status).toBe(200);
    expect(first.body.found).toBe(3);
    expect(first.body.media.map((item: any) => item.file)).toEqual(['list-3.png', 'list-2.png']);
    const handle = encodeURIComponent(first.body.meta.next_page);
    const next = await callJson(
      harness,
      'GET',
      `/rest/v1.1/sites/1/media?number=2&search=list-&page_handle=${handle}`,
      tokens.contributor,
    );
    expect(next.body.media.map((item: any) => item.file)).toEqual(['list-1.png']);
    expect(next.body.meta).toBeUndefined();
    const pdfs = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media?mime_type=application/pdf', tokens.admin);
    expect(pdfs.body.media.map((item: any) => item.ID)).toEqual([324]);
    const ofPost = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media?post_ID=101', tokens.admin);
    expect(ofPost.body.media.map((item: any) => item.ID)).toEqual([201]);
    const anonymous = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media');
    expect(anonymous.status).toBe(401);
  });

  it('orders by order and order_by as the platform casts them: an unknown value of either is its default (DESC, date)', async () => {
    for (const name of ['order-b.png', 'order-c.png', 'order-a.png'])
      await upload('author', [{ name, bytes: await png(9, 9) }]);
    const files = async (query: string) =>
      (
        await callJson(harness, 'GET', `/rest/v1.1/sites/1/media?search=order-&${query}`, tokens.contributor)
      ).body.media.map((item: any) => item.file);
    const newestFirst = ['order-a.png', 'order-c.png', 'order-b.png'];
    expect(await files('')).toEqual(newestFirst);
    expect(await files('order=ASC')).toEqual([...newestFirst].reverse());
    expect(await files('order_by=title&order=ASC')).toEqual(['order-a.png', 'order-b.png', 'order-c.png']);
    expect(await files('order_by=title')).toEqual(['order-c.png', 'order-b.png', 'order-a.png']);
    expect(await files('order=sideways&order_by=nonsense')).toEqual(newestFirst);
  });

  it('edits attributes: the uploader, or an editor (edit_others_posts); another author is refused', async () => {
    const [item] = (await upload('author', [{ name: 'edit-me.png', bytes: await png(5, 5) }])).body.media;
    const path = `/rest/v1.1/sites/1/media/${item.ID}`;
    const own = await callJson(harness, 'POST', path, tokens.author, { title: 'Mine', parent_id: 108 });
    expect(own.body).toMatchObject({ title: 'Mine', post_ID: 108 });
    const byEditor = await callJson(harness, 'POST', path, tokens.editor, { caption: 'Checked' });
    expect(byEditor.body).toMatchObject({ title: 'Mine', caption: 'Checked' });
    const [adminItem] = (await upload('admin', [{ name: 'admins.png', bytes: await png(5, 5) }])).body.media;
    const refused = await callJson(harness, 'POST', `/rest/v1.1/sites/1/media/${adminItem.ID}`, tokens.author, {
      title: 'Not mine',
    });
    expect(refused).toMatchObject({ status: 403, body: { error: 'unauthorized', message: 'User cannot edit media' } });
  });

  it('reads v1.1 and v1.2 (modified, revision_history); a v1.2 edit replaces the file and keeps the old one', async () => {
    const [item] = (await upload('author', [{ name: 'first.png', bytes: await png(30, 20) }])).body.media;
    const v11 = await callJson(harness, 'GET', `/rest/v1.1/sites/1/media/${item.ID}`);
    expect(v11.body).toEqual(item);
    const notImage = new FormData();
    notImage.append('media', new Blob([new Uint8Array(Buffer.from('plain text'))], { type: 'image/png' }), 'x.png');
    const refused = await postForm('author', `/rest/v1.2/sites/1/media/${item.ID}/edit`, notImage);
    expect(refused).toMatchObject({ status: 400, body: { error: 'rest_upload_invalid_type' } });
    const form = new FormData();
    form.append('media', new Blob([new Uint8Array(await png(12, 10))], { type: 'image/png' }), 'second.png');
    form.append('title', 'Second');
    const replaced = await postForm('author', `/rest/v1.2/sites/1/media/${item.ID}/edit`, form);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ ID: item.ID, file: 'second.png', title: 'Second', width: 12, height: 10 });
    expect(replaced.body.URL).not.toBe(item.URL);
    expect(replaced.body.revision_history.items.map((file: any) => file.URL)).toEqual([item.URL]);
    expect(replaced.body.revision_history.original.URL).toBe(item.URL);
    expect((await getFile(item.URL)).status).toBe(200);
    const v12 = await callJson(harness, 'GET', `/rest/v1.2/sites/1/media/${item.ID}`);
    expect(v12.body.modified).toEqual(expect.any(String));
  });

  it('keeps an item’s files in the order they were stored, to the millisecond (two edits in one second)', async () => {
    const [item] = (await upload('author', [{ name: 'ordered.png', bytes: await png(6, 6) }])).body.media;
    // Two files stored in one second, the later one with the key that sorts first: the time decides, not the key.
    const file = (key: string, created: string) => ({
      key,
      file: 'f.png',
      mimeType: 'image/png',
      bytes: 1,
      width: 1,
      height: 1,
      created,
    });
    const modified = '2099-01-01T00:00:00.000Z';
    const earlier = file('media/1/ffffffffffffff01/f.png', '2099-01-01T00:00:00.100Z');
    const later = file('media/1/0000000000000f02/f.png', '2099-01-01T00:00:00.900Z');
    expect(await harness.store.replaceMediaFile(1, item.ID, earlier, 'http://x.invalid/1', {}, modified, ROOMY)).toBe(
      true,
    );
    expect(await harness.store.replaceMediaFile(1, item.ID, later, 'http://x.invalid/2', {}, modified, ROOMY)).toBe(
      true,
    );
    const files = await harness.store.mediaFiles(1, item.ID);
    expect(files.map((stored) => [stored.key, stored.created])).toEqual([
      [later.key, later.created],
      [earlier.key, earlier.created],
      [expect.stringMatching(/ordered\.png$/), expect.stringMatching(/\.\d{3}Z$/)],
    ]);

    // Through v1.2's edit: two edits in a row, the history newest first.
    const [other] = (await upload('author', [{ name: 'edited.png', bytes: await png(6, 6) }])).body.media;
    const edit = async (name: string) => {
      const form = new FormData();
      form.append('media', new Blob([new Uint8Array(await png(7, 7))], { type: 'image/png' }), name);
      return (await postForm('author', `/rest/v1.2/sites/1/media/${other.ID}/edit`, form)).body;
    };
    const first = await edit('first-edit.png');
    const second = await edit('second-edit.png');
    expect(second.revision_history.items.map((revision: any) => revision.URL)).toEqual([first.URL, other.URL]);
  });

  it('deletes: answers the item with status "deleted"; its files stop answering at once', async () => {
    const [item] = (await upload('author', [{ name: 'gone.png', bytes: await png(9, 9) }])).body.media;
    expect((await getFile(`${item.URL}?w=4`)).status).toBe(200);
    const deleted = await callJson(harness, 'POST', `/rest/v1.1/sites/1/media/${item.ID}/delete`, tokens.author);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...item, status: 'deleted' });
    expect((await getFile(item.URL)).status).toBe(404);
    expect((await getFile(`${item.URL}?w=4`)).status).toBe(404);
    const again = await callJson(harness, 'GET', `/rest/v1.1/sites/1/media/${item.ID}`);
    expect(again).toMatchObject({ status: 404, body: { error: 'unknown_media' } });
  });
});

describe('files', () => {
  it('resizes on request (w, resize, fit), answers ETag and 304', async () => {
    const [item] = (await upload('author', [{ name: 'big.png', bytes: await png(400, 200) }])).body.media;
    const small = await getFile(`${item.URL}?w=100`);
    expect(await sharp(small.bytes).metadata()).toMatchObject({ width: 100, height: 50 });
    const cropped = await getFile(`${item.URL}?resize=50,50`);
    expect(await sharp(cropped.bytes).metadata()).toMatchObject({ width: 50, height: 50 });
    const fitted = await getFile(`${item.URL}?fit=80,80`);
    expect(await sharp(fitted.bytes).metadata()).toMatchObject({ width: 80, height: 40 });
    const never = await getFile(`${item.URL}?w=4000`);
    expect(await sharp(never.bytes).metadata()).toMatchObject({ width: 400 });
    const etag = small.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect((await getFile(`${item.URL}?w=100`, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('answers 404 for a file of another site under this one’s ID', async () => {
    const [item] = (await upload('author', [{ name: 'site.png', bytes: await png(4, 4) }])).body.media;
    expect((await getFile(item.URL.replace('/files/1/', '/files/2/'))).status).toBe(404);
  });
});

describe('limits', () => {
  it('refuses a file over MEDIA_MAX_UPLOAD_BYTES and beyond the site quota with the platform codes, for a crowd at once too', async () => {
    const small = await startPublishing({ MEDIA_MAX_UPLOAD_BYTES: '2000', MEDIA_SITE_QUOTA_BYTES: '3000' });
    try {
      // The demo's pictures count against the site's quota: this test's quota is for its own files.
      await small.server.built.db.deleteFrom('media_files').where('site_id', '=', 1).execute();
      const token = await small.tokenFor('author');
      const send = async (bytes: Buffer, name: string) => {
        const response = await small.call(`${small.server.url}/rest/v1.1/sites/1/media/new`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: fileForm([{ name, bytes, type: 'image/png' }]),
        });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      const noisy = await sharp(randomBytes(64 * 64 * 3), {
        raw: { width: 64, height: 64, channels: 3 },
      })
        .png()
        .toBuffer();
      const big = await send(noisy, 'noisy.png');
      expect(big.status).toBe(400);
      expect(big.body.errors[0]).toMatchObject({ error: 'rest_upload_file_too_big' });
      const fits = await png(100, 100);
      expect(fits.length).toBeLessThan(1000);
      const taken: number[] = [];
      let refusal: Record<string, any> | undefined;
      for (let i = 0; i < 10 && !refusal; i++) {
        const answer = await send(await png(100 + i, 100), `q${i}.png`);
        if (answer.status === 200) taken.push(answer.body.media[0].ID);
        else refusal = answer.body.errors[0];
      }
      expect(taken.length).toBeGreaterThan(0);
      expect(refusal).toMatchObject({ error: 'rest_upload_limited_space' });

      // A crowd at once, of uploads and of v1.2 edits with new files (whose earlier files stay and count): each read
      // the room one of them had before it wrote, and all fit, taking the site's files past the quota.
      await small.server.built.db.deleteFrom('media_files').where('site_id', '=', 1).execute();
      const [kept] = (await send(fits, 'kept.png')).body.media;
      const edit = async (i: number) => {
        const form = new FormData();
        form.append('media', new Blob([new Uint8Array(await png(90 + i, 90))], { type: 'image/png' }), `e${i}.png`);
        const response = await small.call(`${small.server.url}/rest/v1.2/sites/1/media/${kept.ID}/edit`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
        });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      const crowd = await Promise.all([
        ...Array.from({ length: 8 }, async (_, i) => send(await png(120 + i, 100), `c${i}.png`)),
        ...Array.from({ length: 8 }, (_, i) => edit(i)),
      ]);
      const refusals = crowd.map((answer) => answer.body.errors?.[0]?.error ?? answer.body.error);
      expect(refusals).toContain('rest_upload_limited_space');
      for (const refused of refusals.filter(Boolean)) expect(refused).toBe('rest_upload_limited_space');
      const used = await small.server.built.db
        .selectFrom('media_files')
        .select('bytes')
        .where('site_id', '=', 1)
        .execute();
      expect(used.reduce((sum, file) => sum + Number(file.bytes), 0)).toBeLessThanOrEqual(3000);
    } finally {
      await small.close();
    }
  });
});
