import type { CastBodies } from '../../../generated/publishing/casts.gen.js';
import { ANONYMOUS_VIEWER, type Viewer } from './domain/access.js';
import { EveryFileRefused, publishingUnauthenticated } from './errors.js';
import {
  deleteMedia,
  editMedia,
  listMedia,
  readMedia,
  readMediaV12,
  updateMedia,
  uploadMedia,
  type MediaSource,
} from './flows/media.js';
import { readMediaFile } from './flows/mediaFile.js';
import type { FlowDeps } from './flows/deps.js';
import type { InputCasts } from './http/phpCast.js';
import { attributeList, urlList } from './flows/postMedia.js';
import type { PublishingHandlers, PublishingPrincipal } from './operations.js';

type MediaOperation =
  | 'listMedia'
  | 'uploadMedia'
  | 'getMedia'
  | 'updateMedia'
  | 'deleteMedia'
  | 'getMediaV12'
  | 'editMediaV12'
  | 'getMediaFile';

function userIdOf(principal: PublishingPrincipal): number {
  if (principal.kind !== 'user') throw publishingUnauthenticated('missing');
  return principal.userId;
}

const viewerOf = (principal: PublishingPrincipal): Viewer =>
  principal.kind === 'user' ? { id: principal.userId, loggedIn: true } : ANONYMOUS_VIEWER;

/** The files of a multipart body's field (as the casting step keeps them: uploaded files only), as sources of an upload. */
const fileSources = (files: CastBodies['uploadMedia' | 'editMediaV12']['media']): MediaSource[] =>
  (files ?? []).map((file) => ({ kind: 'file', name: file.filename, bytes: file.bytes, truncated: file.truncated }));

/**
 * The media handlers: the library's operations (a token's grant applies as
 * on posts: `scopedTo`) and its files. The writes' bodies are read as the
 * endpoint layer casts them (`casts`: a `parent_id` is PHP's `(int)`, a
 * file field keeps uploaded files only), typed from the contract.
 */
export function mediaHandlers(
  scopedTo: (principal: PublishingPrincipal) => { deps: FlowDeps; reads: FlowDeps },
  primary: FlowDeps,
  casts: InputCasts,
): Pick<PublishingHandlers, MediaOperation> {
  return {
    async listMedia({ path, query: given, principal }) {
      // Cast as the platform's `query_args()`: an unknown `order` or `order_by` is its default.
      const query = casts.query('listMedia', given);
      const number = query.number ?? 20;
      const request = {
        site: path.site,
        viewer: viewerOf(principal),
        number,
        offset: query.page !== undefined ? (Math.max(query.page, 1) - 1) * number : Math.max(query.offset ?? 0, 0),
        order: query.order,
        orderBy: query.order_by,
        search: query.search || undefined,
        postId: query.post_ID,
        mimeType: query.mime_type || undefined,
        after: query.after || undefined,
        before: query.before || undefined,
        pageHandle: query.page_handle,
      };
      return { status: 200, body: await listMedia(scopedTo(principal).reads, request) };
    },
    async uploadMedia({ path, body, principal }) {
      const given = casts.body('uploadMedia', body);
      const sources: MediaSource[] = [
        ...fileSources(given.media),
        ...urlList(given.media_urls).map((url): MediaSource => ({ kind: 'url', url })),
      ];
      const request = {
        site: path.site,
        viewerId: userIdOf(principal),
        sources,
        attributes: attributeList(given.attrs),
      };
      // Uploads are written on the primary store (never a replica), as the token's grant sees it.
      const { media, errors } = await uploadMedia(scopedTo(principal).deps, request);
      if (media.length === 0) throw new EveryFileRefused(errors);
      return { status: 200, body: errors.length > 0 ? { media, errors } : { media } };
    },
    async getMedia({ path, principal }) {
      const request = { site: path.site, viewer: viewerOf(principal), id: path.media_ID };
      return { status: 200, body: await readMedia(scopedTo(principal).reads, request) };
    },
    async getMediaV12({ path, principal }) {
      const request = { site: path.site, viewer: viewerOf(principal), id: path.media_ID };
      return { status: 200, body: await readMediaV12(scopedTo(principal).reads, request) };
    },
    async updateMedia({ path, body, principal }) {
      const request = {
        site: path.site,
        viewerId: userIdOf(principal),
        id: path.media_ID,
        body: casts.body('updateMedia', body),
      };
      return { status: 200, body: await updateMedia(scopedTo(principal).deps, request) };
    },
    async deleteMedia({ path, principal }) {
      const request = { site: path.site, viewerId: userIdOf(principal), id: path.media_ID };
      return { status: 200, body: await deleteMedia(scopedTo(principal).deps, request) };
    },
    async editMediaV12({ path, body, principal }) {
      const given = casts.body('editMediaV12', body);
      const file = fileSources(given.media)[0];
      const url = given.media_url || undefined;
      const source: MediaSource | undefined = file ?? (url ? { kind: 'url', url } : undefined);
      const request = {
        site: path.site,
        viewerId: userIdOf(principal),
        id: path.media_ID,
        source,
        body: given,
      };
      return { status: 200, body: await editMedia(scopedTo(principal).deps, request) };
    },
    async getMediaFile({ path, query }) {
      // Read on the primary: a file deleted a moment ago must not answer from a replica that has not heard.
      const served = await readMediaFile(primary, {
        siteId: path.site_ID,
        folder: path.folder,
        file: path.file,
        w: query?.w,
        h: query?.h,
        resize: query?.resize,
        fit: query?.fit,
      });
      return {
        status: 200,
        body: served.bytes,
        headers: {
          'Content-Type': served.mimeType,
          ETag: served.etag,
          'Cache-Control': 'public, max-age=86400',
        },
      };
    },
  };
}
