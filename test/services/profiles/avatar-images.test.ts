// @store-independent
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { avatarImages } from '../../../src/services/profiles/avatars/avatarImages.js';
import { decodeImage } from './support.js';

const MIB = 1024 * 1024;
const upload = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#e76f51' } })
    .png()
    .toBuffer();

/** A store read that counts how often it runs. */
function countingRead(image: Buffer | undefined) {
  const reads = { count: 0 };
  return { reads, read: async () => (reads.count++, image) };
}

describe('drawn avatar images are kept, so a size asked for again is cheap', () => {
  it('an uploaded image is read from the store and decoded once, and drawn once per size', async () => {
    const images = avatarImages({ maxBytes: 8 * MIB });
    const { reads, read } = countingRead(await upload());
    const first = await images.uploaded('digest-1', 64, read);
    const again = await images.uploaded('digest-1', 64, read);
    expect(reads.count).toBe(1);
    expect(again).toBe(first);
    // A new size is drawn from the decoded master: no store read, no decoding of the original.
    const other = await images.uploaded('digest-1', 65, read);
    expect(reads.count).toBe(1);
    expect((await decodeImage(other!.bytes)).width).toBe(65);
  });

  it('a large image is kept as a master of at most 2048 pixels a side', async () => {
    const large = await sharp({ create: { width: 4096, height: 3000, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .toBuffer();
    const images = avatarImages({ maxBytes: 8 * MIB, masterBytes: 32 * MIB });
    const { reads, read } = countingRead(large);
    for (const size of [2048, 1000, 80]) {
      const drawn = await images.uploaded('digest-large', size, read);
      expect((await decodeImage(drawn!.bytes)).width).toBe(size);
    }
    expect(reads.count).toBe(1);
  });

  it('draws by pixels: a large image alone, and refuses at once what would not wait, with busy()', async () => {
    const busy = () => new Error('busy');
    // Room for one 256-pixel drawing at a time, and no wait.
    const images = avatarImages({ maxBytes: 8 * MIB, drawingPixels: 256 * 256, maxWaitMs: 0, busy });
    const drawings = Array.from({ length: 6 }, (_, i) => images.generated('identicon', String(i).repeat(64), 256));
    const settled = await Promise.allSettled(drawings);
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(
      settled
        .filter((outcome) => outcome.status === 'rejected')
        .map((outcome) => (outcome as PromiseRejectedResult).reason.message),
    ).toEqual(Array(5).fill('busy'));
    // A refusal is not remembered: the same image is drawn once the gate has room.
    expect((await images.generated('identicon', '5'.repeat(64), 256)).bytes.length).toBeGreaterThan(0);
  });

  it('draws a burst of small images together: 60 different 80-pixel identicons are all drawn', async () => {
    const busy = () => new Error('busy');
    const images = avatarImages({ maxBytes: 8 * MIB, drawingPixels: 2048 * 2048, maxWaitMs: 1000, busy });
    const drawings = Array.from({ length: 60 }, (_, i) =>
      images.generated('identicon', i.toString(16).padStart(64, 'a'), 80),
    );
    const settled = await Promise.allSettled(drawings);
    expect(settled.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
  });

  it('concurrent requests for one size read and draw it once', async () => {
    const images = avatarImages({ maxBytes: 8 * MIB });
    const { reads, read } = countingRead(await upload());
    const drawn = await Promise.all(Array.from({ length: 10 }, () => images.uploaded('digest-2', 48, read)));
    expect(reads.count).toBe(1);
    expect(new Set(drawn.map((image) => image!.etag)).size).toBe(1);
  });

  it('draws an uploaded image centre-cropped to a square PNG of the size asked for', async () => {
    const images = avatarImages({ maxBytes: 8 * MIB });
    const drawn = await images.uploaded('digest-3', 50, countingRead(await upload()).read);
    const decoded = await decodeImage(drawn!.bytes);
    expect([decoded.width, decoded.height]).toEqual([50, 50]);
    expect(decoded.pixel(0, 0)).toEqual([231, 111, 81, 255]);
    expect(drawn!.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('an image no profile has any more is not drawn, and not remembered as missing', async () => {
    const images = avatarImages({ maxBytes: 8 * MIB });
    const gone = countingRead(undefined);
    expect(await images.uploaded('digest-4', 80, gone.read)).toBeUndefined();
    expect(await images.uploaded('digest-4', 80, gone.read)).toBeUndefined();
    expect(gone.reads.count).toBe(2);
  });

  it('keeps at most maxBytes: the least recently used sizes are drawn again', async () => {
    const { reads, read } = countingRead(await upload());
    const small = avatarImages({ maxBytes: 1 });
    await small.uploaded('digest-5', 64, read);
    await small.uploaded('digest-5', 64, read);
    expect(reads.count).toBe(2);
  });

  it('default images are drawn once per style, size and (for identicons) hash', async () => {
    const images = avatarImages({ maxBytes: 8 * MIB });
    const a = await images.generated('identicon', 'a'.repeat(64), 40);
    expect(await images.generated('identicon', 'a'.repeat(64), 40)).toBe(a);
    expect((await images.generated('identicon', 'b'.repeat(64), 40)).etag).not.toBe(a.etag);
    const mp = await images.generated('mp', 'a'.repeat(64), 40);
    expect(await images.generated('mp', 'b'.repeat(64), 40)).toBe(mp);
  });
});
