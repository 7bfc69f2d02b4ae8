import { randomBytes } from 'node:crypto';
import type {
  MediaItem,
  MediaItemV12,
  MediaList,
  MediaUploadError,
} from '../../../../generated/publishing/types.gen.js';
import { openSite, type Viewer } from '../domain/access.js';
import { isStorableId } from '../../../platform/store/integers.js';
import {
  NoSuchMediaParent,
  OverMediaQuota,
  type MediaAttributes,
  type MediaQuery,
  type MediaRecord,
} from '../domain/media.js';
import { NO_TEXT, storedText, type TextField } from '../domain/storedText.js';
import {
  cannotDeleteMedia,
  cannotEditMedia,
  cannotUploadMedia,
  cannotViewMedia,
  invalidMediaParent,
  noMediaGiven,
  refusedMediaFile,
  unknownMedia,
} from '../errors.js';
import { ingestFile, tooBig, UploadRefused } from '../media/ingest.js';
import type { FlowDeps } from './deps.js';
import { mediaObject, mediaObjectV12 } from './mediaObject.js';
import { storedTime } from './list.js';

type MediaDeps = Pick<FlowDeps, 'store' | 'publicUrl' | 'media'>;

/** A file an upload names: a multipart file (its bytes, or cut short) or a URL to fetch. */
export type MediaSource =
  | { kind: 'file'; name: string; bytes: Buffer; truncated: boolean }
  | { kind: 'url'; url: string };

/** The attributes a request gives (`attrs[i]`, or the edit's body), as sent. */
export interface GivenAttributes {
  title?: unknown;
  caption?: unknown;
  description?: unknown;
  alt?: unknown;
  parent_id?: unknown;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** The post an item is to be attached to, as given: an ID (the store checks it is a post of the site); `0` or empty detaches it. */
function parentOf(given: unknown): number | null | undefined {
  if (given === undefined || given === null) return undefined;
  const id = Number.parseInt(String(given), 10);
  return Number.isFinite(id) && id > 0 ? id : null;
}

/**
 * The attributes a request gives, as the store takes them: each text
 * filtered as the platform's media endpoints store it for the writer
 * (`storedText`: the title as a post's title, the caption as an excerpt,
 * the description as content, the alt text without tags).
 */
function attributesOf(given: GivenAttributes, capabilities: ReadonlySet<string>): MediaAttributes {
  const postId = parentOf(given.parent_id);
  const stored = (field: TextField, value: unknown) => {
    const sent = text(value);
    return sent === undefined ? undefined : storedText(field, sent, capabilities);
  };
  const attributes: MediaAttributes = {
    title: stored('title', given.title),
    caption: stored('excerpt', given.caption),
    description: stored('content', given.description),
    alt: stored('mediaAlt', given.alt),
    ...(postId !== undefined ? { postId } : {}),
  };
  for (const key of ['title', 'caption', 'description', 'alt'] as const)
    if (attributes[key] === undefined) delete attributes[key];
  return attributes;
}

/**
 * Runs a write of the store, answering a parent that is no post of the site
 * as the caller's 400, and a file the site has no room for as the upload's
 * refusal (the platform's `upload_is_user_over_quota`).
 */
async function asCallersErrors<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof NoSuchMediaParent) throw invalidMediaParent();
    if (error instanceof OverMediaQuota)
      throw new UploadRefused(
        'rest_upload_limited_space',
        `Not enough space to upload. ${Math.ceil(error.bytesOver / 1024)} KB needed.`,
      );
    throw error;
  }
}

/** A file name as stored: its base name, plain characters only, its extension the one of its content. */
export function storedName(given: string, extension: string): string {
  const base = given.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return `${stem || 'file'}.${extension}`;
}

/** The title of a new item: its file name without the extension, as the platform titles an upload. */
const titleOf = (given: string) => (given.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');

const nowIso = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();

/** The site and the caller's capabilities there, with the check every write of media makes (`upload_files`). */
async function openForWrite(deps: MediaDeps, site: string, viewerId: number) {
  const opened = await openSite(deps.store, site, { id: viewerId, loggedIn: true });
  if (!opened.roleCapabilities.has('upload_files')) throw cannotUploadMedia();
  return opened;
}

/** One item the caller may change: their own, or anyone's with `edit_others_posts`. */
async function changeable(
  deps: MediaDeps,
  siteId: number,
  id: number,
  viewerId: number,
  capabilities: ReadonlySet<string>,
  refusal: () => Error,
): Promise<MediaRecord> {
  const item = await deps.store.findMedia(siteId, id);
  if (!item) throw unknownMedia();
  if (item.authorId !== viewerId && !capabilities.has('edit_others_posts')) throw refusal();
  return item;
}

/** The bytes a source names: a multipart file's, or a fetched URL's (only where the deployment allows it). */
async function bytesOf(deps: MediaDeps, source: MediaSource): Promise<{ name: string; bytes: Buffer }> {
  if (source.kind === 'file') {
    if (source.truncated) throw tooBig(deps.media.limits.maxBytes);
    return { name: source.name, bytes: source.bytes };
  }
  const fetched = await deps.media.fetchUrl(source.url, deps.media.limits.maxBytes);
  return { name: fetched.name, bytes: fetched.bytes };
}

/**
 * Checks, cleans and stores one file, then adds its row; the file is
 * deleted again when the row cannot be written (a crash between the two
 * leaves a file no row names, which the sweep removes).
 */
async function storeFile(deps: MediaDeps, siteId: number, source: MediaSource) {
  const { name, bytes } = await bytesOf(deps, source);
  const { limits, files, gate } = deps.media;
  const ingested = await ingestFile(bytes, limits, gate);
  // The room left is counted where the row is written (`insertMedia`), so a crowd cannot all fit in it.
  const file = storedName(name, ingested.extension);
  const key = `media/${siteId}/${randomBytes(8).toString('hex')}/${file}`;
  // A put that fails may still have written the file (a store that answered late, or not at all): delete it again.
  await keepingFile(deps, key, () => files.put(key, ingested.bytes, ingested.mimeType));
  return {
    name,
    key,
    file: {
      key,
      file,
      mimeType: ingested.mimeType,
      bytes: ingested.bytes.length,
      width: ingested.width,
      height: ingested.height,
      // To the millisecond: two edits in one second keep their order in the item's history.
      created: new Date().toISOString(),
    },
  };
}

/** Runs `write` with a stored file; deletes the file when `write` fails. */
async function keepingFile<T>(deps: MediaDeps, key: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await deps.media.files.delete(key).catch(() => undefined);
    throw error;
  }
}

export interface UploadRequest {
  site: string;
  viewerId: number;
  sources: MediaSource[];
  /** Per source, by index (`attrs[i]`). */
  attributes: readonly (GivenAttributes | undefined)[];
}

/**
 * Adds each source to the site's media library, in order (attached to
 * `postId` when given, whatever its attributes say): the items added, and
 * each file refused as the platform lists it (`{file, error, message}`).
 */
export async function addMedia(
  deps: MediaDeps,
  siteId: number,
  viewerId: number,
  capabilities: ReadonlySet<string>,
  sources: readonly MediaSource[],
  givenAttributes: readonly (GivenAttributes | undefined)[],
  postId?: number,
): Promise<{ media: MediaItem[]; errors: MediaUploadError[] }> {
  const media: MediaItem[] = [];
  const errors: MediaUploadError[] = [];
  for (const [index, source] of sources.entries()) {
    const label = source.kind === 'file' ? source.name : source.url;
    try {
      const given = attributesOf(
        { ...givenAttributes[index], ...(postId === undefined ? {} : { parent_id: undefined }) },
        capabilities,
      );
      const stored = await storeFile(deps, siteId, source);
      const id = await keepingFile(deps, stored.key, () =>
        asCallersErrors(() =>
          deps.store.insertMedia({
            siteId,
            quotaBytes: deps.media.limits.siteQuotaBytes,
            authorId: viewerId,
            date: nowIso(),
            url: deps.media.urlOf(stored.key),
            file: stored.file,
            attributes: {
              title: given.title ?? storedText('title', titleOf(stored.name), capabilities),
              caption: given.caption ?? NO_TEXT,
              description: given.description ?? NO_TEXT,
              alt: given.alt ?? NO_TEXT,
              postId: postId ?? given.postId ?? null,
            },
          }),
        ),
      );
      const item = await deps.store.findMedia(siteId, id);
      if (item) media.push(mediaObject(item, deps.publicUrl));
    } catch (error) {
      if (!(error instanceof UploadRefused)) throw error;
      errors.push({ file: label, error: error.code, message: error.message });
    }
  }
  return { media, errors };
}

/** The platform's upload (`POST /media/new`): the items added, and the files refused. */
export async function uploadMedia(
  deps: MediaDeps,
  request: UploadRequest,
): Promise<{ media: MediaItem[]; errors: MediaUploadError[] }> {
  const { site, roleCapabilities } = await openForWrite(deps, request.site, request.viewerId);
  if (request.sources.length === 0) throw noMediaGiven();
  return addMedia(deps, site.id, request.viewerId, roleCapabilities, request.sources, request.attributes);
}

export interface ListMediaRequest extends Omit<MediaQuery, 'siteId' | 'from'> {
  site: string;
  viewer: Viewer;
  pageHandle?: string;
}

/** A page handle: the sort value and ID of the last item of the page. */
const handleOf = (item: MediaRecord, orderBy: MediaQuery['orderBy']) =>
  new URLSearchParams({
    value: orderBy === 'title' ? item.title : orderBy === 'ID' ? String(item.id) : item.date,
    id: String(item.id),
  }).toString();

function fromHandle(handle: string | undefined): MediaQuery['from'] {
  if (!handle) return undefined;
  const params = new URLSearchParams(handle);
  const id = Number(params.get('id'));
  const value = params.get('value');
  // An ID no stored item can have names no position (as a post list's handle: `positionOf`).
  return value !== null && isStorableId(id) ? { value, id } : undefined;
}

/** The platform's media list: needs `edit_posts` (contributors and up). */
export async function listMedia(deps: MediaDeps, request: ListMediaRequest): Promise<MediaList> {
  if (!request.viewer.loggedIn) throw cannotViewMedia();
  const { site, roleCapabilities } = await openSite(deps.store, request.site, request.viewer);
  if (!roleCapabilities.has('edit_posts')) throw cannotViewMedia();
  const { site: _site, viewer: _viewer, pageHandle, ...query } = request;
  const from = fromHandle(pageHandle);
  const { found, items } = await deps.store.listMedia({
    ...query,
    after: storedTime('after', query.after),
    before: storedTime('before', query.before),
    siteId: site.id,
    from,
  });
  const last = items.at(-1);
  const more = from ? items.length === query.number : query.offset + items.length < found;
  return {
    found,
    media: items.map((item) => mediaObject(item, deps.publicUrl)),
    ...(last && more ? { meta: { next_page: handleOf(last, query.orderBy) } } : {}),
  };
}

export interface MediaRequest {
  site: string;
  viewer: Viewer;
  id: number;
}

/** One item, for anyone who may read the site (its file is public). */
export async function readMedia(deps: MediaDeps, request: MediaRequest): Promise<MediaItem> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const item = await deps.store.findMedia(site.id, request.id);
  if (!item) throw unknownMedia();
  return mediaObject(item, deps.publicUrl);
}

/** One item with its v1.2 history. */
export async function readMediaV12(deps: MediaDeps, request: MediaRequest): Promise<MediaItemV12> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const item = await deps.store.findMedia(site.id, request.id);
  if (!item) throw unknownMedia();
  const files = await deps.store.mediaFiles(site.id, item.id);
  return mediaObjectV12(item, files, deps.publicUrl, deps.media.urlOf);
}

/** Sets an item's attributes. */
export async function updateMedia(
  deps: MediaDeps,
  request: { site: string; viewerId: number; id: number; body: GivenAttributes },
): Promise<MediaItem> {
  const { site, roleCapabilities } = await openForWrite(deps, request.site, request.viewerId);
  await changeable(deps, site.id, request.id, request.viewerId, roleCapabilities, cannotEditMedia);
  const attributes = attributesOf(request.body, roleCapabilities);
  const updated = await asCallersErrors(() => deps.store.updateMedia(site.id, request.id, attributes, nowIso()));
  if (!updated) throw unknownMedia();
  const item = await deps.store.findMedia(site.id, request.id);
  if (!item) throw unknownMedia();
  return mediaObject(item, deps.publicUrl);
}

/** Deletes an item and its files; answers it as it was, `status: "deleted"`. */
export async function deleteMedia(
  deps: MediaDeps,
  request: { site: string; viewerId: number; id: number },
): Promise<MediaItem> {
  const { site, roleCapabilities } = await openForWrite(deps, request.site, request.viewerId);
  const item = await changeable(deps, site.id, request.id, request.viewerId, roleCapabilities, cannotDeleteMedia);
  const keys = await deps.store.deleteMedia(site.id, item.id);
  if (keys.length === 0 && item.storageKey) throw unknownMedia();
  // A file whose deletion fails here is no row's any more: the sweep removes it.
  await Promise.all(keys.map((key) => deps.media.files.delete(key).catch(() => undefined)));
  return { ...mediaObject(item, deps.publicUrl), status: 'deleted' };
}

/** v1.2's edit: a new file for the item (the one it replaces kept in its history), and attributes. */
export async function editMedia(
  deps: MediaDeps,
  request: { site: string; viewerId: number; id: number; source?: MediaSource; body: GivenAttributes },
): Promise<MediaItemV12> {
  const { site, roleCapabilities } = await openForWrite(deps, request.site, request.viewerId);
  await changeable(deps, site.id, request.id, request.viewerId, roleCapabilities, cannotEditMedia);
  const attributes = attributesOf(request.body, roleCapabilities);
  if (!request.source) {
    await asCallersErrors(() => deps.store.updateMedia(site.id, request.id, attributes, nowIso()));
  } else {
    const { source } = request;
    try {
      const stored = await storeFile(deps, site.id, source);
      await keepingFile(deps, stored.key, async () => {
        const done = await asCallersErrors(() =>
          deps.store.replaceMediaFile(
            site.id,
            request.id,
            stored.file,
            deps.media.urlOf(stored.key),
            attributes,
            nowIso(),
            deps.media.limits.siteQuotaBytes,
          ),
        );
        if (!done) throw unknownMedia();
      });
    } catch (error) {
      if (error instanceof UploadRefused) throw refusedEdit(error);
      throw error;
    }
  }
  return readMediaV12(deps, { site: request.site, viewer: { id: request.viewerId, loggedIn: true }, id: request.id });
}

/** An edit's refused file, as the service's 400 with the upload's code. */
const refusedEdit = (refused: UploadRefused) => refusedMediaFile(refused.code, refused.message);
