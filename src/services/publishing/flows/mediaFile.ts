import { unknownMedia } from '../errors.js';
import type { ServedFile, SizeRequest } from '../media/mediaImages.js';
import type { FlowDeps } from './deps.js';

export interface MediaFileRequest {
  siteId: number;
  folder: string;
  file: string;
  w?: number;
  h?: number;
  /** `w,h` */
  resize?: string;
  fit?: string;
}

const pair = (value: string) => {
  const [width, height] = value.split(',').map(Number);
  return { width: width || undefined, height: height || undefined };
};

/** The size a request asks for: `resize=w,h` (cropped to it), else `fit=w,h`, else `w` and `h` (within them). */
export function sizeOf(request: Pick<MediaFileRequest, 'w' | 'h' | 'resize' | 'fit'>): SizeRequest {
  if (request.resize) return { ...pair(request.resize), fit: 'cover' };
  if (request.fit) return { ...pair(request.fit), fit: 'inside' };
  return { width: request.w, height: request.h, fit: 'inside' };
}

/**
 * A media file as served: only while a row names it (so a deleted item's
 * files stop answering at once, on every instance, whatever an instance
 * keeps in memory), resized as asked. 404 `unknown_media` otherwise.
 */
export async function readMediaFile(
  deps: Pick<FlowDeps, 'store' | 'media'>,
  request: MediaFileRequest,
): Promise<ServedFile & { mimeType: string }> {
  const key = `media/${request.siteId}/${request.folder}/${request.file}`;
  const row = await deps.store.findMediaFile(key);
  if (!row || row.siteId !== request.siteId) throw unknownMedia();
  const served = await deps.media.images.served(key, row.mimeType.startsWith('image/'), sizeOf(request), () =>
    deps.media.files.get(key),
  );
  if (!served) throw unknownMedia();
  return { ...served, mimeType: row.mimeType };
}
