import type { MediaImages } from '../media/mediaImages.js';
import type { FileStore } from '../../../platform/files/fileStore.js';
import type { ConcurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import type { PresentedPosts } from './presentedPosts.js';

/**
 * What publishing's flows work with. The module builds one object that has
 * it (`publishingDeps` in module.ts) and hands it to the handlers, which
 * hand it to each flow; a flow names the part it reads (`Pick<FlowDeps, …>`).
 * A read is handed it with the read store as `store` and the primary as
 * `primary`; a call with an OAuth token, with the stores as the token's
 * grant sees them (`withinGrant`).
 */
/** The media library's parts: where files are kept, how many images are worked on at once, the limits. */
export interface MediaLibrary {
  files: FileStore;
  /** sharp's work on uploads, bounded (weighed in pixels). */
  gate: ConcurrencyGate;
  limits: { maxBytes: number; maxPixels: number; siteQuotaBytes: number };
  /** Files as served, resized and kept in memory. */
  images: MediaImages;
  /** The public URL of a stored file (this deployment's `/files/…`, or `MEDIA_BASE_URL`'s). */
  urlOf: (key: string) => string;
  /** Fetches a `media_urls` entry, only from the hosts the deployment allows (refusing with `UploadRefused`). */
  fetchUrl: (url: string, maxBytes: number) => Promise<{ name: string; bytes: Buffer }>;
}

export interface FlowDeps {
  /** The media library's files and limits. */
  media: MediaLibrary;
  /** The store the flow reads and writes. */
  store: PublishingStore;
  /** The primary store, when `store` is a read replica: scheduled posts whose date has come are published there. */
  primary?: PublishingStore;
  /** Base of absolute API links (`PUBLIC_URL`). */
  publicUrl: string;
  /** Base of the wp.me-style short links (`PUBLISHING_SHORTLINK_BASE`). */
  shortlinkBase: string;
  /** Post objects presented to callers without a token, kept under the store's change mark (none: every post is presented anew). */
  presentedPosts?: PresentedPosts;
  /** Told whether each authorised restore made the transition or found the post already out of the trash. */
  onRestore?: (outcome: 'restored' | 'unchanged') => void;
  /** Told what each authorised delete did: trashed the post, deleted it for good, or found it already changed. */
  onDelete?: (outcome: 'trashed' | 'deleted' | 'unchanged') => void;
}
