import type { Insertable, Kysely } from 'kysely';
import { localFileStore, type FileStore } from '../../../platform/files/fileStore.js';
import { s3FileStore } from '../../../platform/files/s3FileStore.js';
import { loadSharp } from '../../../platform/images.js';
import type { MediaSettings } from '../settings.js';
import type { PublishingDatabase } from './tables.js';

type AttachmentRow = Insertable<PublishingDatabase['attachments']>;

/** The colour of each demo picture, by its shape (one picture drawn per shape and process). */
const COLOURS: Record<string, string> = { '640x480': '#4a7fb0', '1200x800': '#2f8f83', '800x1200': '#24456b' };

const drawn = new Map<string, Promise<Buffer>>();

/** A plain JPEG of `width`×`height` (drawn by sharp once per shape and process: demo loads are many in tests). */
function picture(width: number, height: number): Promise<Buffer> {
  const shape = `${width}x${height}`;
  let bytes = drawn.get(shape);
  if (!bytes) {
    bytes = loadSharp().then((sharp) =>
      sharp({ create: { width, height, channels: 3, background: COLOURS[shape] ?? '#777777' } })
        .jpeg({ quality: 70 })
        .toBuffer(),
    );
    drawn.set(shape, bytes);
  }
  return bytes;
}

/** The key of a demo attachment's file: its own folder (its ID in 16 hex digits), under its site. */
const keyOf = (row: AttachmentRow) => `media/${row.site_id}/${row.id.toString(16).padStart(16, '0')}/${row.file}`;

/** The file store `MEDIA_STORAGE` names. */
const fileStoreOf = (storage: MediaSettings['storage']): FileStore =>
  storage.kind === 's3' ? s3FileStore(storage) : localFileStore(storage.path);

/**
 * The demo's image attachments as this deployment serves them: each a file
 * in the media storage (a picture of its size, drawn here), its row naming
 * it (`storage_key`, a `media_files` row) and its URL under the media base
 * URL, so a demo post's featured image answers, resized with `?w=`. The
 * other attachments (a PDF, a sound) keep their rows as they are.
 */
export async function demoMediaFiles(
  rows: readonly AttachmentRow[],
  settings: Pick<MediaSettings, 'baseUrl'>,
): Promise<{ attachments: AttachmentRow[]; files: { key: string; bytes: Buffer }[] }> {
  const base = settings.baseUrl.replace(/\/$/, '');
  const attachments: AttachmentRow[] = [];
  const files: { key: string; bytes: Buffer }[] = [];
  for (const row of rows) {
    if (row.mime_type !== 'image/jpeg' || !row.width || !row.height) {
      // Every row names each column (a many-row insert on SQLite has no DEFAULT for a missing one).
      attachments.push({ ...row, storage_key: null, bytes: 0, modified: null });
      continue;
    }
    const key = keyOf(row);
    const bytes = await picture(row.width, row.height);
    const url = `${base}/${key.replace(/^media\//, '')}`;
    attachments.push({ ...row, url, guid: url, storage_key: key, bytes: bytes.length, modified: row.date });
    files.push({ key, bytes });
  }
  return { attachments, files };
}

/** Writes the demo's files to the media storage (before their rows: a load that fails leaves files the sweep removes). */
export async function putDemoMediaFiles(
  files: readonly { key: string; bytes: Buffer }[],
  storage: MediaSettings['storage'],
): Promise<void> {
  const store = fileStoreOf(storage);
  for (const file of files) await store.put(file.key, file.bytes, 'image/jpeg');
}

/** A `media_files` row for each demo attachment with a file (in the demo's transaction, after the attachments). */
export async function insertDemoMediaFiles(
  db: Kysely<PublishingDatabase>,
  attachments: readonly AttachmentRow[],
): Promise<void> {
  const rows = attachments
    .filter((row) => row.storage_key)
    .map((row) => ({
      key: row.storage_key as string,
      site_id: row.site_id,
      media_id: row.id,
      file: row.file,
      mime_type: row.mime_type,
      bytes: Number(row.bytes),
      width: row.width ?? 0,
      height: row.height ?? 0,
      created: row.date,
    }));
  if (rows.length > 0) await db.insertInto('media_files').values(rows).execute();
}
