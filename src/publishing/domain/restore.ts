import type { Post } from '../../../generated/publishing/types.gen.js';
import { cannotEdit, cannotRestore, unknownBlog, unknownPost } from '../errors.js';
import type { PublishingStore, SiteRecord } from '../store/publishingStore.js';
import { postCapabilities } from './capabilities.js';
import type { PostContext } from './context.js';
import { loadMetaData, requestedMetaLinks } from './metaData.js';
import { LISTED_ATTACHMENTS, postObject } from './postObject.js';
import { parseSiteRef } from './siteRef.js';

/** Post types every site exposes; others only when the site allows them (`rest_api_allowed_post_types`). */
const ALWAYS_EXPOSED_TYPES: ReadonlySet<string> = new Set(['post', 'page']);

export interface RestoreDeps {
  store: PublishingStore;
  /** Base of absolute API links. */
  publicUrl: string;
  /** Told whether each authorised restore made the transition or found the post already out of the trash. */
  onRestore?: (outcome: 'restored' | 'unchanged') => void;
}

export interface RestoreRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  postId: number;
  viewerId: number;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
}

const exposes = (site: SiteRecord, type: string) => ALWAYS_EXPOSED_TYPES.has(type) || site.extraPostTypes.includes(type);

/**
 * Restores a trashed post and answers it as the post object, in the real
 * order of checks: site (404 `unknown_blog`), post (404 `unknown_post`, also
 * for a type the site does not expose), the right to delete the post (403
 * "User cannot restore trashed posts") and, for `context=edit`, the right to
 * edit it (403 "User cannot edit post"), all before any change. A post not
 * in the trash is answered unchanged.
 */
export async function restoreTrashedPost(deps: RestoreDeps, request: RestoreRequest): Promise<Post> {
  const { store } = deps;
  const site = await store.findSite(parseSiteRef(request.site));
  if (!site) throw unknownBlog();
  const found = await store.findPost(site.id, request.postId);
  if (!found || !exposes(site, found.type)) throw unknownPost();
  const roleCapabilities = await store.capabilitiesOf(site.id, request.viewerId);
  const before = postCapabilities(roleCapabilities, request.viewerId, found);
  if (!before.delete_post) throw cannotRestore();
  if (request.context === 'edit' && !before.edit_post) throw cannotEdit();

  let post = found;
  if (found.status === 'trash') {
    // Whether this call or a concurrent one made the transition, the answer is the post as it now is.
    const restored = await store.restorePost(found.id, new Date());
    deps.onRestore?.(restored ? 'restored' : 'unchanged');
    const current = await store.findPost(site.id, found.id);
    if (!current) throw unknownPost();
    post = current;
  } else {
    deps.onRestore?.('unchanged');
  }

  const capabilities = postCapabilities(roleCapabilities, request.viewerId, post);
  const relations = await store.postRelations(post, {
    viewerId: request.viewerId,
    recentAttachments: LISTED_ATTACHMENTS,
    allAttachments: request.context === 'display' && post.content.includes('[gallery'),
    revisions: request.context === 'edit',
  });
  const links = requestedMetaLinks(request.meta);
  const metaData = links.length
    ? await loadMetaData(links, { store, publicUrl: deps.publicUrl, site, post, ancestors: relations.ancestors, viewerId: request.viewerId })
    : undefined;
  return postObject({ site, post, relations, capabilities, context: request.context, publicUrl: deps.publicUrl, metaData });
}
