import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStore } from '../../../src/platform/files/fileStore.js';
import { sweepMediaFiles } from '../../../src/services/publishing/media/sweep.js';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * No orphaned file: a file no row names (what a crash between writing a
 * file and its row leaves) is deleted by the sweep once it is older than
 * the bound; a file a row names, or a young one, is left.
 */

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(() => harness?.close());

describe('the media sweep', () => {
  it('deletes old files no row names, leaves named and young ones', async () => {
    const storage = harness.server.config.publishing.media.storage;
    if (storage.kind !== 'file') throw new Error('the test server keeps media on the local disk');
    const files = localFileStore(storage.path);
    const form = new FormData();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    form.append('media[]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'kept.png');
    const token = await harness.tokenFor('author');
    const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/media/new`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const [item] = ((await response.json()) as { media: { URL: string }[] }).media;
    const keptKey = `media/${new URL(item!.URL).pathname.replace(/^\/files\//, '')}`;
    await files.put('media/1/00000000000000aa/orphan.png', png, 'image/png');
    await files.put('media/1/00000000000000bb/young.png', png, 'image/png');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const key of [keptKey, 'media/1/00000000000000aa/orphan.png'])
      await utimes(join(storage.path, ...key.split('/')), hourAgo, hourAgo);
    const deleted = await sweepMediaFiles(harness.store, files, 60 * 60 * 1000);
    expect(deleted).toBe(1);
    expect(await files.get('media/1/00000000000000aa/orphan.png')).toBeUndefined();
    expect(await files.get('media/1/00000000000000bb/young.png')).toBeDefined();
    expect(await files.get(keptKey)).toBeDefined();
    expect((await harness.call(item!.URL)).status).toBe(200);
  });
});
