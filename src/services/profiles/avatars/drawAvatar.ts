import { loadJdenticon, loadSharp } from './imaging.js';
import { AVATAR_UPLOAD_LIMITS } from './avatarUpload.js';
import type { DefaultAvatarStyle } from './avatarRequest.js';

/**
 * The mystery-person silhouette (`d=mp`): a pale head and shoulders on grey,
 * drawn at any size by rasterizing this SVG.
 */
const mysteryPerson = (size: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
  '<rect width="100" height="100" fill="#c4c7cc"/>' +
  '<circle cx="50" cy="38" r="18" fill="#f3f4f6"/>' +
  '<path d="M14 100C14 76 30 62 50 62S86 76 86 100Z" fill="#f3f4f6"/>' +
  '</svg>';

/** Largest side of the master an uploaded image is decoded into once; every size is drawn from it. */
export const MASTER_SIDE = 2048;

/** An uploaded image decoded once: upright, at most MASTER_SIDE a side, as raw pixels. */
export interface MasterImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Decodes an uploaded image into its master: turned upright (EXIF), scaled down to MASTER_SIDE when larger. */
export async function decodeMaster(image: Buffer): Promise<MasterImage> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(image, { limitInputPixels: AVATAR_UPLOAD_LIMITS.side ** 2 })
    .rotate()
    .resize(MASTER_SIDE, MASTER_SIDE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: info.channels };
}

/** Draws an uploaded image's master as a `size`-pixel square PNG: centre-cropped to a square, scaled. */
export async function drawFromMaster(master: MasterImage, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width, height, channels } = master;
  return sharp(master.pixels, { raw: { width, height, channels } })
    .resize(size, size, { fit: 'cover' })
    .png()
    .toBuffer();
}

/**
 * Draws a default image as a `size`-pixel square PNG: `identicon` a
 * geometric pattern drawn by jdenticon from `seed` (the same hash, the same
 * pattern), `mp` the mystery-person silhouette, `blank` fully transparent.
 */
export async function drawDefaultAvatar(style: DefaultAvatarStyle, seed: string, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  if (style === 'blank') {
    return sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
  }
  const svg =
    style === 'identicon'
      ? (await loadJdenticon()).toSvg(seed, size, { backColor: '#ffffffff', padding: 0.08 })
      : mysteryPerson(size);
  return sharp(Buffer.from(svg)).resize(size, size).png().toBuffer();
}
