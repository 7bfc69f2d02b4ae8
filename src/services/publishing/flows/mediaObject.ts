import type { Attachment, MediaItem, MediaItemV12, MediaRevision } from '../../../../generated/publishing/types.gen.js';
import { apiDate } from '../domain/dates.js';
import { mediaApiLinks } from '../domain/links.js';
import type { MediaFileRecord, MediaRecord } from '../domain/media.js';
import type { AttachmentRecord } from '../domain/records.js';

/** Image sizes listed in an item's (and an attachment's) `thumbnails`, by width (the platform's default sizes). */
const THUMBNAIL_WIDTHS = { thumbnail: 150, medium: 300, large: 1024 } as const;

/** The width of an item's `icon`. */
const ICON_WIDTH = 48;

/** What `wp_read_image_metadata` lists; every upload loses its metadata, so its values are the empty ones. */
const EMPTY_EXIF: MediaItem['exif'] = {
  aperture: '0',
  credit: '',
  camera: '',
  caption: '',
  created_timestamp: '0',
  copyright: '',
  focal_length: '0',
  iso: '0',
  shutter_speed: '0',
  title: '',
  orientation: '0',
  keywords: [],
};

/** A file's size as the platform words it (`size_format(…, 2)`: `121.55 KB`). */
export function sizeWords(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(2))} ${units[unit]}`;
}

const extensionOf = (file: string) => /\.([^./]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';

/** The URL of an image at a width: the item's own URL, resized on request (`?w=`), never wider than the image. */
const atWidth = (url: string, width: number, imageWidth: number) => `${url}?w=${Math.min(width, imageWidth || width)}`;

/**
 * An attachment as a post's `attachments` list it: the first keys of the
 * media item object (below), which the platform builds with the same code,
 * its links on site `siteId`'s API under `publicUrl`.
 */
export function attachmentObject(item: AttachmentRecord, publicUrl: string, siteId: number): Attachment {
  return {
    ID: item.id,
    URL: item.url,
    guid: item.guid,
    date: apiDate(item.date),
    post_ID: item.postId ?? 0,
    author_ID: item.authorId ?? 0,
    file: item.file,
    mime_type: item.mimeType,
    extension: extensionOf(item.file),
    title: item.title,
    caption: item.caption,
    description: item.description,
    alt: item.alt,
    thumbnails: item.mimeType.startsWith('image/')
      ? Object.fromEntries(
          Object.entries(THUMBNAIL_WIDTHS).map(([name, width]) => [name, atWidth(item.url, width, item.width)]),
        )
      : {},
    height: item.height,
    width: item.width,
    meta: { links: mediaApiLinks(publicUrl, siteId, item.id, item.postId) },
  };
}

/** The media item object (`get_media_item_v1_1`), its links on the site's API under `publicUrl`. */
export function mediaObject(item: MediaRecord, publicUrl: string): MediaItem {
  // The attachment's keys, with `icon` and `size` before its thumbnails and `exif` before its links, as the platform orders them.
  const { thumbnails, height, width, meta, ...head } = attachmentObject(item, publicUrl, item.siteId);
  return {
    ...head,
    icon: item.mimeType.startsWith('image/') ? atWidth(item.url, ICON_WIDTH, item.width) : '',
    ...(item.bytes > 0 ? { size: sizeWords(item.bytes) } : {}),
    thumbnails,
    height,
    width,
    exif: EMPTY_EXIF,
    meta,
  };
}

const revision = (file: MediaFileRecord, urlOf: (key: string) => string): MediaRevision => ({
  URL: urlOf(file.key),
  file: file.file,
  extension: extensionOf(file.file),
  mime_type: file.mimeType,
  width: file.width,
  height: file.height,
  size: sizeWords(file.bytes),
});

/**
 * The v1.2 item: the v1.1 one with `modified` and `revision_history`, the
 * files edits replaced (newest first; `files` newest first with the current
 * one) and the first one uploaded (`original`).
 */
export function mediaObjectV12(
  item: MediaRecord,
  files: readonly MediaFileRecord[],
  publicUrl: string,
  urlOf: (key: string) => string,
): MediaItemV12 {
  const earlier = files.filter((file) => file.key !== item.storageKey);
  // The first file: the earliest an edit replaced (files of one second fall back to that rule), else the current one.
  const original = earlier.at(-1) ?? files.at(-1);
  return {
    ...mediaObject(item, publicUrl),
    modified: apiDate(item.modified),
    revision_history: {
      items: earlier.map((file) => revision(file, urlOf)),
      ...(original ? { original: revision(original, urlOf) } : {}),
    },
  };
}
