import { sha256Hex } from '../../../platform/security/secrets.js';
import type { Metadata } from 'sharp';
import { loadSharp } from './imaging.js';
import type { AvatarImage } from '../domain/profilesStore.js';

/** Largest avatar file the import takes, and its largest side in pixels. */
export const AVATAR_UPLOAD_LIMITS = { bytes: 5 * 1024 * 1024, side: 4096 } as const;

const FORMATS: Record<string, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', gif: 'GIF' };

/** An avatar file the import refuses; the message says why (`is not an image …`). */
export class AvatarImageRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AvatarImageRejected';
  }
}

/**
 * Checks an uploaded avatar image before it is stored: a PNG, JPEG, WebP or
 * GIF file of at most 5 MB and 4096 pixels a side that decodes completely
 * (so every size of it can be drawn later). Returns its bytes as given and
 * their SHA-256, which names the image in caches.
 */
export async function acceptAvatarImage(bytes: Buffer): Promise<AvatarImage> {
  if (bytes.length === 0) throw new AvatarImageRejected('is an empty file');
  if (bytes.length > AVATAR_UPLOAD_LIMITS.bytes) throw new AvatarImageRejected('is larger than 5 MB');
  const limitInputPixels = AVATAR_UPLOAD_LIMITS.side ** 2;
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels }).metadata();
  } catch {
    throw new AvatarImageRejected('is not an image (PNG, JPEG, WebP or GIF)');
  }
  const kind = FORMATS[metadata.format ?? ''];
  if (!kind)
    throw new AvatarImageRejected(`is a ${metadata.format ?? 'unknown'} image; avatars must be PNG, JPEG, WebP or GIF`);
  const { width = 0, height = 0 } = metadata;
  if (width > AVATAR_UPLOAD_LIMITS.side || height > AVATAR_UPLOAD_LIMITS.side) {
    throw new AvatarImageRejected(`is ${width}x${height} pixels; at most ${AVATAR_UPLOAD_LIMITS.side} a side`);
  }
  try {
    // A full decode: a damaged or truncated file is refused now, not when a size of it is first asked for.
    await sharp(bytes, { limitInputPixels, failOn: 'warning' }).resize(8, 8).png().toBuffer();
  } catch {
    throw new AvatarImageRejected(`cannot be decoded (a damaged or truncated ${kind} file)`);
  }
  return { bytes, digest: sha256Hex(bytes) };
}
