import { LRUCache } from 'lru-cache';
import { entityTag } from '../http/entityTag.js';
import type { DefaultAvatarStyle } from './avatarRequest.js';
import { drawDefaultAvatar, drawUploadedAvatar } from './drawAvatar.js';

/** A drawn avatar image: PNG bytes and their strong entity tag. */
export interface DrawnAvatar {
  bytes: Buffer;
  etag: string;
}

/** The avatar images of one instance, each size drawn once (see `avatarImages`). */
export interface AvatarImages {
  /**
   * The uploaded image with this digest at `size` pixels; `read` gives the
   * stored bytes (only when this size is not kept) and undefined when no
   * profile has the image any more.
   */
  uploaded(digest: string, size: number, read: () => Promise<Buffer | undefined>): Promise<DrawnAvatar | undefined>;
  /** A default image at `size` pixels; an identicon is drawn from `seed`. */
  generated(style: DefaultAvatarStyle, seed: string, size: number): Promise<DrawnAvatar>;
}

/**
 * Drawn avatar images kept in memory, least recently used dropped first
 * beyond `maxBytes` (lru-cache): a size asked for again costs no store read
 * and no drawing, and concurrent requests for one size draw it once. Keys
 * name the image by content (an uploaded image by its SHA-256), so a new
 * image is never answered from the old one's entries.
 */
export function avatarImages(options: { maxBytes: number }): AvatarImages {
  const drawn = new LRUCache<string, DrawnAvatar, () => Promise<Buffer | undefined>>({
    maxSize: options.maxBytes,
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
          const image = await read();
          return image && drawUploadedAvatar(image, size);
        },
      }),
    async generated(style, seed, size) {
      // Only an identicon depends on the hash.
      const key = `${style}:${style === 'identicon' ? seed : ''}:${size}`;
      const image = await drawn.fetch(key, { context: () => drawDefaultAvatar(style, seed, size) });
      return image!;
    },
  };
}
