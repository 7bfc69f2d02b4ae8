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

/** Draws an uploaded image as a `size`-pixel square PNG: turned upright, centre-cropped to a square, scaled. */
export async function drawUploadedAvatar(image: Buffer, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(image, { limitInputPixels: AVATAR_UPLOAD_LIMITS.side ** 2 })
    .rotate()
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
  const svg = style === 'identicon' ? (await loadJdenticon()).toSvg(seed, size, { backColor: '#ffffffff', padding: 0.08 }) : mysteryPerson(size);
  return sharp(Buffer.from(svg)).resize(size, size).png().toBuffer();
}
