import type { Insertable, Kysely } from 'kysely';
import { loadSharp } from '../../../platform/images.js';
import { fileStoreOf, mediaUrlOf } from '../media/library.js';
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

/** A one-page PDF saying `text` (the demo's route map): a catalogue, a page, its text, a font, and their offsets. */
export function demoPdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 770 Td (${text.replace(/[\\()]/g, '\\$&')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * A second of silence as MP3 (the demo's sound): 38 MPEG-1 Layer III frames
 * of 417 bytes (128 kbit/s, 44.1 kHz, joint stereo, no CRC), each a header
 * and zeroed side information and data, which decoders play as silence.
 */
export function demoMp3(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: 38 }, () => frame));
}

/** The bytes of a demo attachment that is not a picture, by its type. */
const DOCUMENTS: Record<string, (row: AttachmentRow) => Buffer> = {
  'application/pdf': (row) => demoPdf(row.title ?? row.file),
  'audio/mpeg': () => demoMp3(),
};

/** The key of a demo attachment's file: its own folder (its ID in 16 hex digits), under its site. */
const keyOf = (row: AttachmentRow) => `media/${row.site_id}/${row.id.toString(16).padStart(16, '0')}/${row.file}`;

/** A demo file to put in the media storage. */
export interface DemoFile {
  key: string;
  bytes: Buffer;
  mimeType: string;
}

/**
 * The demo's attachments as this deployment serves them: each a file in the
 * media storage (a picture of its size drawn here, a one-page PDF, a second
 * of silence), its row naming it (`storage_key`, a `media_files` row) and
 * its URL under the media base URL, so a demo post's featured image
 * answers, resized with `?w=`. `urls` maps each attachment's URL in the
 * demo data to the one served here, for the posts' content.
 */
export async function demoMediaFiles(
  rows: readonly AttachmentRow[],
  settings: Pick<MediaSettings, 'baseUrl'>,
): Promise<{ attachments: AttachmentRow[]; files: DemoFile[]; urls: Map<string, string> }> {
  const urlOf = mediaUrlOf(settings.baseUrl);
  const attachments: AttachmentRow[] = [];
  const files: DemoFile[] = [];
  const urls = new Map<string, string>();
  for (const row of rows) {
    const document = DOCUMENTS[row.mime_type];
    const bytes =
      row.mime_type === 'image/jpeg' && row.width && row.height
        ? await picture(row.width, row.height)
        : document?.(row);
    if (!bytes) throw new Error(`demo attachment ${row.id}: no file of type ${row.mime_type} is drawn`);
    const key = keyOf(row);
    const url = urlOf(key);
    urls.set(row.url, url);
    attachments.push({ ...row, url, guid: url, storage_key: key, bytes: bytes.length, modified: row.date });
    files.push({ key, bytes, mimeType: row.mime_type });
  }
  return { attachments, files, urls };
}

/** `text` with every demo attachment URL it names replaced by the URL this deployment serves it at. */
export function servedUrls(text: string, urls: ReadonlyMap<string, string>): string {
  let served = text;
  for (const [given, url] of urls) served = served.replaceAll(given, url);
  return served;
}

/** Writes the demo's files to the media storage (before their rows: a load that fails leaves files the sweep removes). */
export async function putDemoMediaFiles(files: readonly DemoFile[], storage: MediaSettings['storage']): Promise<void> {
  const store = fileStoreOf(storage);
  for (const file of files) await store.put(file.key, file.bytes, file.mimeType);
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
