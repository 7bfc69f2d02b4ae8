import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../src/app.js';
import { localFileStore, type FileStore } from '../../../src/platform/files/fileStore.js';
import { s3FileStore } from '../../../src/platform/files/s3FileStore.js';
import type { PublishingStore } from '../../../src/services/publishing/domain/publishingStore.js';
import { editMedia, uploadMedia } from '../../../src/services/publishing/flows/media.js';
import { mediaLibrary } from '../../../src/services/publishing/media/library.js';
import { s3Env } from '../../support/s3.js';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * No orphaned file and no row after a failed upload or edit (issue 53), on
 * the local disk and on the S3 path (the run's S3-compatible server): the
 * file store fails after writing the file (an answer lost on the way back),
 * or the store fails writing the row after the file was written. The faults
 * are injected into the flow's own dependencies (its file store, its store).
 */

let harness: PublishingTestServer;
const folder = mkdtempSync(join(tmpdir(), 'media-faults-'));
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(async () => {
  await harness?.close();
  rmSync(folder, { recursive: true, force: true });
});

const AUTHOR_ID = 2;

const STORAGES = {
  local: () => ({ kind: 'file' as const, path: folder }),
  s3: () => {
    const storage = configFromEnv(s3Env(`faults-${process.pid}-${Date.now()}`)).publishing.media.storage;
    if (storage.kind !== 's3') throw new Error('s3Env names an S3 storage');
    return storage;
  },
};

const fileStoreOf = (storage: ReturnType<(typeof STORAGES)[keyof typeof STORAGES]>): FileStore =>
  storage.kind === 's3' ? s3FileStore(storage) : localFileStore(storage.path);

async function keys(files: FileStore): Promise<string[]> {
  const listed: string[] = [];
  for await (const file of files.list('media/1/')) listed.push(file.key);
  return listed.sort();
}

const itemCount = async () =>
  (await harness.store.listMedia({ siteId: 1, number: 1, offset: 0, order: 'DESC', orderBy: 'ID' })).found;

const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();

describe.each(Object.keys(STORAGES) as (keyof typeof STORAGES)[])('a failed upload on %s storage', (kind) => {
  const storage = STORAGES[kind]();
  const real = fileStoreOf(storage);
  const depsWith = (files: FileStore, store: PublishingStore = harness.store) => ({
    store,
    publicUrl: harness.server.config.publicUrl,
    media: mediaLibrary({ ...harness.server.config.publishing.media, storage }, files),
  });
  const upload = async (files: FileStore, store?: PublishingStore) =>
    uploadMedia(depsWith(files, store), {
      site: '1',
      viewerId: AUTHOR_ID,
      sources: [{ kind: 'file', name: 'fault.png', bytes: await png(), truncated: false }],
      attributes: [],
    });

  it('leaves no file and no row when the file store fails after writing the file', async () => {
    const before = await keys(real);
    const count = await itemCount();
    const lostAnswer: FileStore = {
      ...real,
      put: async (key, bytes, type) => {
        await real.put(key, bytes, type);
        throw new Error('connection reset after the write');
      },
    };
    await expect(upload(lostAnswer)).rejects.toThrow('connection reset');
    expect(await keys(real)).toEqual(before);
    expect(await itemCount()).toBe(count);
  });

  it('leaves no file when the row cannot be written after the file was (an upload, and an edit)', async () => {
    const before = await keys(real);
    const count = await itemCount();
    const failing: PublishingStore = {
      ...harness.store,
      insertMedia: async () => {
        throw new Error('the database went away');
      },
      replaceMediaFile: async () => {
        throw new Error('the database went away');
      },
    };
    await expect(upload(real, failing)).rejects.toThrow('went away');
    expect(await keys(real)).toEqual(before);
    expect(await itemCount()).toBe(count);

    const { media } = await upload(real);
    const stored = await keys(real);
    expect(stored).toHaveLength(before.length + 1);
    const edit = editMedia(depsWith(real, failing), {
      site: '1',
      viewerId: AUTHOR_ID,
      id: media[0]!.ID,
      source: { kind: 'file', name: 'edit.png', bytes: await png(), truncated: false },
      body: {},
    });
    await expect(edit).rejects.toThrow('went away');
    expect(await keys(real)).toEqual(stored);
    expect((await harness.store.mediaFiles(1, media[0]!.ID)).map((file) => file.key)).toEqual([
      expect.stringMatching(/fault\.png$/),
    ]);
  });
});
