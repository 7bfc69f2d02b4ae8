import { LRUCache } from 'lru-cache';
import { concurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import { entityTag } from '../http/entityTag.js';
import type { DefaultAvatarStyle } from './avatarRequest.js';
import { decodeMaster, drawDefaultAvatar, drawFromMaster, type MasterImage } from './drawAvatar.js';

/** A drawn avatar image: PNG bytes and their strong entity tag. */
export interface DrawnAvatar {
  bytes: Buffer;
  etag: string;
}

/** The avatar images of one instance, each size drawn once (see `avatarImages`). */
export interface AvatarImages {
  /**
   * The uploaded image with this digest at `size` pixels; `read` gives the
   * stored bytes (only when neither this size nor the image's master is
   * kept) and undefined when no profile has the image any more.
   */
  uploaded(digest: string, size: number, read: () => Promise<Buffer | undefined>): Promise<DrawnAvatar | undefined>;
  /** A default image at `size` pixels; an identicon is drawn from `seed`. */
  generated(style: DefaultAvatarStyle, seed: string, size: number): Promise<DrawnAvatar>;
  /**
   * Another image drawn for the service (a QR code), named by `key`: kept
   * with the avatars, in the same bytes bound, and drawn through the same
   * gate, so its cost is counted with theirs.
   */
  other(key: string, draw: () => Promise<Buffer>): Promise<DrawnAvatar>;
}

export interface AvatarImagesOptions {
  /** Most bytes of drawn PNGs kept. */
  maxBytes: number;
  /** Most bytes of decoded masters (raw pixels) kept; `maxBytes` unless given. */
  masterBytes?: number;
  /** Drawings (and decodings) that run at once; more wait. */
  maxDrawing?: number;
  /** Drawings that may wait; one more is refused with `busy()`. */
  maxWaiting?: number;
  /** The error a drawing beyond the queue is refused with (the service's 503). */
  busy?: () => Error;
}

/**
 * Drawn avatar images kept in memory, least recently used dropped first
 * beyond `maxBytes` (lru-cache): a size asked for again costs no store read
 * and no drawing, and concurrent requests for one size draw it once. Keys
 * name the image by content (an uploaded image by its SHA-256), so a new
 * image is never answered from the old one's entries. An uploaded image is
 * decoded once into a master of at most 2048 pixels a side, from which each
 * size is drawn. Drawing runs `maxDrawing` at a time with a short queue, so
 * a flood of new sizes or hashes costs bounded CPU and memory, not a pile of
 * concurrent full-size images.
 */
export function avatarImages(options: AvatarImagesOptions): AvatarImages {
  const gate = concurrencyGate(options.maxDrawing ?? 2, options.maxWaiting ?? 8, options.busy ?? (() => new Error('avatar drawing queue is full')));
  const masters = new LRUCache<string, MasterImage, () => Promise<Buffer | undefined>>({
    maxSize: Math.max(1, options.masterBytes ?? options.maxBytes),
    sizeCalculation: (master) => Math.max(1, master.pixels.length),
    async fetchMethod(_digest, _stale, { context: read }) {
      const bytes = await read();
      return bytes && gate(() => decodeMaster(bytes));
    },
  });
  const drawn = new LRUCache<string, DrawnAvatar, () => Promise<Buffer | undefined>>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (image) => image.bytes.length + image.etag.length,
    async fetchMethod(_key, _stale, { context: draw }) {
      const bytes = await draw();
      return bytes && { bytes, etag: entityTag(bytes) };
    },
  });
  return {
    uploaded: (digest, size, read) =>
      drawn.fetch(`upload:${digest}:${size}`, {
        context: async () => {
          const master = await masters.fetch(digest, { context: read });
          return master && gate(() => drawFromMaster(master, size));
        },
      }),
    async generated(style, seed, size) {
      // Only an identicon depends on the hash.
      const key = `${style}:${style === 'identicon' ? seed : ''}:${size}`;
      const image = await drawn.fetch(key, { context: () => gate(() => drawDefaultAvatar(style, seed, size)) });
      return image!;
    },
    async other(key, draw) {
      const image = await drawn.fetch(`other:${key}`, { context: () => gate(draw) });
      return image!;
    },
  };
}
