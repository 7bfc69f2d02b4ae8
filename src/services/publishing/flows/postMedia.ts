import type { Post } from '../../../../generated/publishing/types.gen.js';
import type { FlowDeps } from './deps.js';
import { addMedia, type GivenAttributes, type MediaSource } from './media.js';
import type { WriteInput } from './writeInput.js';

/** At most this many attributes are read (the multipart reader takes at most 20 files). */
const MAX_ATTRIBUTES = 100;

/**
 * `media_attrs` (or `attrs`) as the platform reads them: its values in
 * order, their keys dropped (`handle_media_creation_v1_1`:
 * `array_values($media_attrs)`), so the first attributes given are the
 * first file's whatever their index (`attrs[1]` without `attrs[0]` is the
 * first file's, as the form's bracket reader also makes it). An array is
 * taken as it is (a JSON `null` keeps its place).
 */
export function attributeList(value: unknown): (GivenAttributes | undefined)[] {
  const values = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return values
    .slice(0, MAX_ATTRIBUTES)
    .map((attributes) => (attributes && typeof attributes === 'object' ? (attributes as GivenAttributes) : undefined));
}

/** `media_urls` as a list of URLs. */
export const urlList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
    (url): url is string => typeof url === 'string' && url !== '',
  );

/**
 * A post write's files (`media[]`) and URLs (`media_urls[]`), added to the
 * site's media library attached to the post, as the platform's post
 * endpoints do (`handle_media_creation_v1_1` with the post as parent). The
 * refusals, as the answer's `media_errors`: every file for a caller without
 * `upload_files` (`unauthorized`), else each file the library refuses.
 */
export async function attachPostMedia(
  deps: Pick<FlowDeps, 'store' | 'publicUrl' | 'media'>,
  siteId: number,
  viewerId: number,
  roleCapabilities: ReadonlySet<string>,
  postId: number,
  body: WriteInput,
): Promise<Post['media_errors']> {
  const sources: MediaSource[] = [
    ...(body.media ?? []).map(
      (file): MediaSource => ({
        kind: 'file',
        name: file.filename,
        bytes: file.bytes ?? Buffer.alloc(0),
        truncated: file.truncated === true,
      }),
    ),
    ...urlList(body.media_urls).map((url): MediaSource => ({ kind: 'url', url })),
  ];
  if (sources.length === 0) return undefined;
  if (!roleCapabilities.has('upload_files')) {
    return sources.map((source) => ({
      file: source.kind === 'file' ? source.name : source.url,
      error: 'unauthorized',
      message: 'User cannot upload media.',
    }));
  }
  const attributes = attributeList(body.media_attrs);
  const { errors } = await addMedia(deps, siteId, viewerId, roleCapabilities, sources, attributes, postId);
  return errors.length > 0 ? errors : undefined;
}
