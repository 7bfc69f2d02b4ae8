import { LRUCache } from 'lru-cache';
import { concurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import { entityTag } from '../domain/entityTag.js';
import type { DefaultAvatarStyle } from './avatarRequest.js';
import { decodeMaster, drawDefaultAvatar, drawFromMaster, MASTER_SIDE, type MasterImage } from './drawAvatar.js';

/**
 * What a drawing weighs at the gate: its pixels, and at least those of a
 * 256-pixel square, since a small drawing still holds a pipeline and
 * buffers of its own (so at most 64 small ones run with the default capacity).
 */
const drawingWeight = (pixels: number) => Math.max(pixels, 256 * 256);

/** A first guess of a drawing's time per pixel (about 60 ms for 2048 pixels a side), until the gate has timed its own. */
const DRAWING_MS_PER_PIXEL = 60 / MASTER_SIDE ** 2;

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
  /** Pixels that drawings (and decodings) in progress may hold at once; more wait. */
  drawingPixels?: number;
  /** Expected wait at which a drawing is refused with `busy()` instead of queued. */
  maxWaitMs?: number;
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
 * size is drawn. Drawings pass a gate weighed in pixels (`drawingPixels`
 * at once, a queue of at most `maxWaitMs` expected), so a flood of new sizes
 * or hashes costs bounded CPU and memory, not a pile of concurrent full-size
 * images, while a burst of small ones is drawn together.
 */
export function avatarImages(options: AvatarImagesOptions): AvatarImages {
  const gate = concurrencyGate({
    capacity: options.drawingPixels ?? MASTER_SIDE ** 2,
    maxWaitMs: options.maxWaitMs ?? 1000,
    msPerUnit: DRAWING_MS_PER_PIXEL,
    busy: options.busy ?? (() => new Error('avatar drawing queue is full')),
  });
  const masters = new LRUCache<string, MasterImage, () => Promise<Buffer | undefined>>({
    maxSize: Math.max(1, options.masterBytes ?? options.maxBytes),
    sizeCalculation: (master) => Math.max(1, master.pixels.length),
    async fetchMethod(_digest, _stale, { context: read }) {
      const bytes = await read();
      // Decoding an upload (up to 4096 pixels a side) runs alone.
      return bytes && gate(() => decodeMaster(bytes), Infinity);
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
          return (
            master &&
            gate(() => drawFromMaster(master, size), drawingWeight(Math.max(master.width * master.height, size * size)))
          );
        },
      }),
    async generated(style, seed, size) {
      // Only an identicon depends on the hash.
      const key = `${style}:${style === 'identicon' ? seed : ''}:${size}`;
      const image = await drawn.fetch(key, {
        context: () => gate(() => drawDefaultAvatar(style, seed, size), drawingWeight(size * size)),
      });
      return image!;
    },
    async other(key, draw) {
      const image = await drawn.fetch(`other:${key}`, { context: () => gate(draw) });
      return image!;
    },
  };
}
