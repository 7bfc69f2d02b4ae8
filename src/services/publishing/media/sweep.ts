import type { FileStore } from '../../../platform/files/fileStore.js';
import type { PublishingMedia } from '../domain/media.js';

/** How many keys one question to the store names. */
const BATCH = 200;

/**
 * Deletes the media files no row names that are older than `olderThanMs`
 * (what a crash between writing a file and its row leaves, or a delete
 * whose file deletion failed): listed from the file store under `media/`,
 * asked of the store in batches. A file younger than the bound may be an
 * upload whose row is still being written, and is left. Answers how many
 * files it deleted.
 */
export async function sweepMediaFiles(
  store: Pick<PublishingMedia, 'knownMediaFiles'>,
  files: FileStore,
  olderThanMs: number,
  now = Date.now(),
): Promise<number> {
  let deleted = 0;
  let batch: string[] = [];
  const flush = async () => {
    const known = await store.knownMediaFiles(batch);
    for (const key of batch) {
      if (known.has(key)) continue;
      await files.delete(key);
      deleted++;
    }
    batch = [];
  };
  for await (const file of files.list('media/')) {
    // A `.part` file is a write a crash cut short (the local disk's temporary name).
    if (file.modified.getTime() > now - olderThanMs) continue;
    if (file.key.endsWith('.part')) {
      await files.delete(file.key).catch(() => undefined);
      deleted++;
      continue;
    }
    batch.push(file.key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return deleted;
}
