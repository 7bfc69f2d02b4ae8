import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { loadSharp } from '../../../platform/images.js';
import type { ConcurrencyGate } from '../../../platform/ops/concurrencyGate.js';

/** How an image is asked for: its width and height, and how it fills them. */
export interface SizeRequest {
  width?: number;
  height?: number;
  /** `cover`: exactly that size, cropped (`resize`); `inside`: within it (`fit`, `w`, `h`). */
  fit: 'cover' | 'inside';
}

/** A file as answered: its bytes and entity tag. */
export interface ServedFile {
  bytes: Buffer;
  etag: string;
}

const entityTag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/**
 * Resized images (and files as stored) kept in memory, least recently used
 * dropped beyond `maxBytes`; concurrent requests for one size draw it once.
 * Keys name the file by its key, which names one content for good (an edit
 * stores a new file under a new key), so an entry is never stale; whether
 * the file still exists is the caller's to check on every request. Drawing
 * passes the gate, weighed in the source image's pixels.
 */
export function mediaImages(options: { maxBytes: number; maxPixels: number; gate: ConcurrencyGate }) {
  const kept = new LRUCache<string, ServedFile, () => Promise<Buffer | undefined>>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (file) => Math.max(1, file.bytes.length),
    async fetchMethod(_key, _stale, { context: make }) {
      const bytes = await make();
      return bytes && { bytes, etag: entityTag(bytes) };
    },
  });
  return {
    /** The file at `key`, resized when `size` asks (an image only); undefined when the store has no such file. */
    async served(
      key: string,
      isImage: boolean,
      size: SizeRequest,
      read: () => Promise<Buffer | undefined>,
    ): Promise<ServedFile | undefined> {
      const resized = isImage && (size.width !== undefined || size.height !== undefined);
      if (!resized) return kept.fetch(key, { context: read });
      const sizeKey = `${key}?${size.width ?? ''}x${size.height ?? ''}:${size.fit}`;
      return kept.fetch(sizeKey, {
        context: async () => {
          const original = await kept.fetch(key, { context: read });
          if (!original) return undefined;
          const sharp = await loadSharp();
          const {
            width = 0,
            height = 0,
            pages = 1,
          } = await sharp(original.bytes, { limitInputPixels: false }).metadata();
          return options.gate(
            () =>
              sharp(original.bytes, { limitInputPixels: options.maxPixels, animated: pages > 1 })
                .resize({ width: size.width, height: size.height, fit: size.fit, withoutEnlargement: true })
                .toBuffer(),
            width * height,
          );
        },
      });
    },
  };
}

export type MediaImages = ReturnType<typeof mediaImages>;
