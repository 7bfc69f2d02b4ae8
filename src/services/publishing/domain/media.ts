import type { AttachmentRecord } from './records.js';
import type { StoredText } from './storedText.js';

/** A media item of a site (an attachment) with what the media endpoints add: its current file and when it last changed. */
export interface MediaRecord extends AttachmentRecord {
  siteId: number;
  /** The key of its current file in the file store; null for an item whose file lives elsewhere (older demo rows). */
  storageKey: string | null;
  /** Size of its current file in bytes. */
  bytes: number;
  /** ISO-8601 UTC time of the last change to the item or its file. */
  modified: string;
}

/** A file a media item holds or held (an edit keeps the one it replaces). */
export interface MediaFileRecord {
  key: string;
  siteId: number;
  mediaId: number;
  file: string;
  mimeType: string;
  bytes: number;
  width: number;
  height: number;
  /** ISO-8601 UTC time it was stored, to the millisecond (an item's files are listed newest first by it). */
  created: string;
}

/**
 * The attributes of an item a caller sets: its text only as `storedText`
 * filtered it (docs/decisions/stored-text.md).
 */
export interface MediaAttributes {
  title?: StoredText;
  caption?: StoredText;
  description?: StoredText;
  alt?: StoredText;
  /** The post it is attached to (null: none): a post of the item's site, or the write is refused (`NoSuchMediaParent`). */
  postId?: number | null;
}

/** What a write of the store throws when the post it would attach an item to is no post of the item's site. */
export class NoSuchMediaParent extends Error {
  constructor(readonly postId: number) {
    super(`No post ${postId} in the media item's site`);
    this.name = 'NoSuchMediaParent';
  }
}

/** What a write of the store throws when the site's files would take more than its quota: `bytesOver` too many. */
export class OverMediaQuota extends Error {
  constructor(readonly bytesOver: number) {
    super(`The site's files would take ${bytesOver} bytes more than its quota`);
    this.name = 'OverMediaQuota';
  }
}

/** A new item with its first file. */
export interface NewMedia {
  siteId: number;
  /** The most bytes the site's files may take with this one (its earlier files counted), or the write is refused (`OverMediaQuota`). */
  quotaBytes: number;
  authorId: number;
  date: string;
  url: string;
  file: Omit<MediaFileRecord, 'mediaId' | 'siteId'>;
  attributes: Required<Omit<MediaAttributes, 'postId'>> & { postId: number | null };
}

export type MediaOrderBy = 'date' | 'title' | 'ID';

/** What a list of a site's media asks for. */
export interface MediaQuery {
  siteId: number;
  number: number;
  offset: number;
  order: 'ASC' | 'DESC';
  orderBy: MediaOrderBy;
  search?: string;
  /** Attached to this post (0: to none). */
  postId?: number;
  /** A MIME type (`image/jpeg`) or family (`image`). */
  mimeType?: string;
  /** ISO-8601 UTC bounds: `after` ≤ date < `before`. */
  after?: string;
  before?: string;
  /** After this position (a page handle): the sort value and ID of the last item seen. */
  from?: { value: string; id: number };
}

/** The media library of a site, as the store keeps it. */
export interface PublishingMedia {
  listMedia(query: MediaQuery): Promise<{ found: number; items: MediaRecord[] }>;
  findMedia(siteId: number, id: number): Promise<MediaRecord | undefined>;
  /** Every file the item held, newest first (its current one included). */
  mediaFiles(siteId: number, mediaId: number): Promise<MediaFileRecord[]>;
  findMediaFile(key: string): Promise<MediaFileRecord | undefined>;
  /**
   * Adds the item and its file's row in one transaction; answers its ID.
   * Throws, writing nothing, `NoSuchMediaParent` for a parent that is no post
   * of the site, and `OverMediaQuota` when the site's files would pass
   * `quotaBytes` (counted in the same write, one write at a time per site, so
   * a crowd of uploads cannot all fit in the room one of them had).
   */
  insertMedia(media: NewMedia): Promise<number>;
  /** Sets attributes; false when there is no such item. Throws `NoSuchMediaParent` (nothing written) for a parent that is no post of the site. */
  updateMedia(siteId: number, id: number, attributes: MediaAttributes, modified: string): Promise<boolean>;
  /** Makes `file` the item's current file (its earlier ones kept); false when there is no such item. Throws `NoSuchMediaParent` and `OverMediaQuota` (nothing written) as `insertMedia`. */
  replaceMediaFile(
    siteId: number,
    id: number,
    file: NewMedia['file'],
    url: string,
    attributes: MediaAttributes,
    modified: string,
    /** As a new item's (`NewMedia`): the item's earlier files stay, and count. */
    quotaBytes: number,
  ): Promise<boolean>;
  /** Deletes the item and its files' rows; answers the keys of those files (none: no such item). */
  deleteMedia(siteId: number, id: number): Promise<string[]>;
  /** Which of these file keys a row names (the sweep deletes the others). */
  knownMediaFiles(keys: readonly string[]): Promise<Set<string>>;
}
