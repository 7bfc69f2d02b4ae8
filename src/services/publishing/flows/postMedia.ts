import type { Post } from '../../../../generated/publishing/types.gen.js';
import type { FlowDeps } from './deps.js';
import { addMedia, type GivenAttributes, type MediaSource } from './media.js';
import type { WriteInput } from './writeInput.js';

/** `media_attrs` (or `attrs`) as a list by index: an array, or an object keyed by index. */
export function attributeList(value: unknown): (GivenAttributes | undefined)[] {
  if (Array.isArray(value)) return value as GivenAttributes[];
  if (!value || typeof value !== 'object') return [];
  const list: (GivenAttributes | undefined)[] = [];
  for (const [index, attributes] of Object.entries(value)) {
    const at = Number(index);
    if (Number.isSafeInteger(at) && at >= 0 && at < 100) list[at] = attributes as GivenAttributes;
  }
  return list;
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
