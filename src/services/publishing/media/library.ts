import { concurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import { localFileStore, type FileStore } from '../../../platform/files/fileStore.js';
import { s3FileStore } from '../../../platform/files/s3FileStore.js';
import { mediaBusy, mediaStorageUnavailable } from '../errors.js';
import type { MediaLibrary } from '../flows/deps.js';
import type { MediaSettings } from '../settings.js';
import { urlFetcher } from './fetchUrl.js';
import { mediaImages } from './mediaImages.js';

/** What one pixel of an image is expected to cost sharp, until the gate has timed work of its own. */
const MS_PER_PIXEL = 0.00002;

/**
 * The media library of one instance: its file store (`MEDIA_STORAGE`), one
 * gate for every image it decodes (uploads and resizes, weighed in pixels:
 * at most `maxPixels` at once, so one of the largest images runs alone and
 * small ones together, and a flood waits at most a second before a 503),
 * the resized images it keeps, the limits, and the fetcher of `media_urls`.
 */
export function mediaLibrary(settings: MediaSettings, files: FileStore = fileStoreOf(settings.storage)): MediaLibrary {
  const gate = concurrencyGate({
    capacity: settings.maxPixels,
    maxWaitMs: 1000,
    msPerUnit: MS_PER_PIXEL,
    busy: mediaBusy,
  });
  return {
    files,
    gate,
    images: mediaImages({ maxBytes: settings.cacheBytes, maxPixels: settings.maxPixels, gate }),
    limits: { maxBytes: settings.maxBytes, maxPixels: settings.maxPixels, siteQuotaBytes: settings.siteQuotaBytes },
    urlOf: mediaUrlOf(settings.baseUrl),
    fetchUrl: urlFetcher(settings.urlHosts),
  };
}

/** A file's URL under the media base URL (`MEDIA_BASE_URL`): a key is `media/<site>/<folder>/<file>`, its URL the base with the rest. */
export function mediaUrlOf(baseUrl: string): (key: string) => string {
  const base = baseUrl.replace(/\/$/, '');
  return (key) => `${base}/${key.replace(/^media\//, '')}`;
}

/** The file store `MEDIA_STORAGE` names; a store that fails (a bucket that does not answer) is the service's 503. */
export const fileStoreOf = (storage: MediaSettings['storage']): FileStore =>
  unavailableAs503(storage.kind === 's3' ? s3FileStore(storage) : localFileStore(storage.path));

/** The file store, each failure of it answered `503` with `Retry-After` (logged once by the pipeline, with its cause). */
function unavailableAs503(files: FileStore): FileStore {
  const guarded =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        throw mediaStorageUnavailable(error);
      }
    };
  return {
    put: guarded(files.put),
    get: guarded(files.get),
    delete: guarded(files.delete),
    list: (prefix) => files.list(prefix),
  };
}
