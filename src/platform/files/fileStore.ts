import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';

/** A stored file as listed: its key and when it was last written. */
export interface StoredFile {
  key: string;
  modified: Date;
}

/**
 * Where a service keeps files (media uploads): one interface over the local
 * disk and any S3-compatible service. Keys are `/`-separated relative names
 * of letters, digits, `-`, `_`, `.` (never `..`); a key names one file,
 * written whole or not at all.
 */
export interface FileStore {
  /** Writes the file whole (a reader never sees part of it). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes the file; deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Every file under `prefix`, for the sweep of files no row names. */
  list(prefix: string): AsyncIterable<StoredFile>;
}

const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Refuses a key that could leave the store's folder or is not a plain name. */
export function checkedKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new RangeError(`not a file key: ${JSON.stringify(key)}`);
  }
  return key;
}

/**
 * Files on the local disk under `root` (the embedded default, beside the
 * SQLite file). A file is written to a temporary name in its folder and
 * renamed, so a crash mid-write leaves no half file under its key (only a
 * `.part` file the sweep removes).
 */
export function localFileStore(root: string): FileStore {
  const pathOf = (key: string) => join(root, ...checkedKey(key).split('/'));
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const part = `${path}.${randomBytes(6).toString('hex')}.part`;
      try {
        await writeFile(part, bytes);
        await rename(part, path);
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      const start = prefix ? join(root, ...checkedKey(prefix.replace(/\/$/, '')).split('/')) : root;
      const walk = async function* (folder: string): AsyncGenerator<StoredFile> {
        let entries: import('node:fs').Dirent[];
        try {
          entries = await readdir(folder, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
        for (const entry of entries) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) yield* walk(path);
          else if (entry.isFile()) {
            const { mtime } = await stat(path);
            yield { key: relative(root, path).split(sep).join('/'), modified: mtime };
          }
        }
      };
      yield* walk(start);
    },
  };
}
