import type { Metadata } from 'sharp';
import { loadSharp } from '../../../platform/images.js';
import type { ConcurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import { ApiError } from '../../../platform/answers/errors.js';

/** What an upload may be: its size, and the pixels of an image (width × height, every frame). */
export interface IngestLimits {
  maxBytes: number;
  maxPixels: number;
}

/** A file as it is stored: cleaned of its metadata, with its type from its content. */
export interface IngestedFile {
  bytes: Buffer;
  mimeType: string;
  extension: string;
  width: number;
  height: number;
}

/** A file refused, with the platform's code and message (`rest_upload_file_too_big`, …). */
export class UploadRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

/** Image formats taken, by sharp's name: their MIME type and extension. */
const IMAGE_FORMATS: Record<string, { mimeType: string; extension: string }> = {
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
  png: { mimeType: 'image/png', extension: 'png' },
  gif: { mimeType: 'image/gif', extension: 'gif' },
  webp: { mimeType: 'image/webp', extension: 'webp' },
};

/** The file extensions an upload may have, as a site's `options.allowed_file_types` names them: the images above (JPEG as `jpg` and `jpeg`) and PDF. */
export const ALLOWED_FILE_TYPES: readonly string[] = [
  ...new Set(
    Object.values(IMAGE_FORMATS).flatMap(({ extension }) => (extension === 'jpg' ? ['jpg', 'jpeg'] : [extension])),
  ),
  'pdf',
];

const invalidType = () =>
  new UploadRefused('rest_upload_invalid_type', 'Sorry, you are not allowed to upload this file type.');

export const tooBig = (maxBytes: number) =>
  new UploadRefused(
    'rest_upload_file_too_big',
    `This file is too big. Files must be less than ${Math.floor(maxBytes / 1024)} KB in size.`,
  );

/**
 * Checks an uploaded file by its content, never its name, and cleans it:
 * a JPEG, PNG, GIF or WebP image (SVG and every other image format
 * refused), or a PDF. An image's header is read first, and one of more
 * pixels than `maxPixels` is refused before any of it is decoded (a huge
 * PNG of a few bytes costs a header read). An image is then decoded and
 * written again through `gate` (sharp on its thread pool, a bounded number
 * at once, weighed in pixels): turned upright by its EXIF orientation, and
 * written without any metadata (EXIF with its GPS location, XMP, IPTC),
 * its colour profile kept. A PDF is stored as given.
 */
export async function ingestFile(bytes: Buffer, limits: IngestLimits, gate: ConcurrencyGate): Promise<IngestedFile> {
  if (bytes.length > limits.maxBytes) throw tooBig(limits.maxBytes);
  if (bytes.length === 0) throw new UploadRefused('rest_upload_no_data', 'The file is empty.');
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    return { bytes, mimeType: 'application/pdf', extension: 'pdf', width: 0, height: 0 };
  }
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    // Reads the header only: nothing is decoded yet.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidType();
  }
  const format = IMAGE_FORMATS[metadata.format ?? ''];
  if (!format) throw invalidType();
  const width = metadata.width ?? 0;
  const height = (metadata.pageHeight ?? metadata.height ?? 0) * (metadata.pages ?? 1);
  if (width * height > limits.maxPixels || width === 0 || height === 0) {
    throw new UploadRefused(
      'rest_upload_too_many_pixels',
      `The image is ${metadata.width}x${metadata.height} pixels; at most ${limits.maxPixels} pixels are taken.`,
    );
  }
  const animated = (metadata.pages ?? 1) > 1;
  try {
    return await gate(async () => {
      let image = sharp(bytes, { limitInputPixels: limits.maxPixels, animated, failOn: 'error' });
      // Upright by its EXIF orientation (then dropped with the rest of the metadata on output).
      if (!animated) image = image.rotate();
      const { data, info } = await image
        .keepIccProfile()
        .toFormat(metadata.format as 'jpeg' | 'png' | 'gif' | 'webp')
        .toBuffer({ resolveWithObject: true });
      return {
        bytes: data,
        ...format,
        width: info.width,
        height: animated ? (info.pageHeight ?? info.height) : info.height,
      };
    }, width * height);
  } catch (error) {
    // The gate's refusal (the service's 503) is the caller's to answer.
    if (error instanceof UploadRefused || error instanceof ApiError) throw error;
    throw new UploadRefused('rest_upload_invalid', 'The file cannot be read (a damaged or truncated image).');
  }
}
