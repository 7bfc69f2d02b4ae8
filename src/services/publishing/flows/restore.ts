import type { Post } from '../../../../generated/publishing/types.gen.js';
import { cannotEdit, cannotRestore, unknownPost } from '../errors.js';
import { exposes, openSite, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import type { FlowDeps } from './deps.js';
import { presentPost, type PresentDeps } from './presentPost.js';

export type RestoreDeps = PresentDeps & Pick<FlowDeps, 'onRestore'>;

export interface RestoreRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  postId: number;
  viewerId: number;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
}

/**
 * Restores a trashed post and answers it as the post object, in the real
 * order of checks: site (404 `unknown_blog`; a private site only for its
 * users), post (404 `unknown_post`, also for a type the site does not
 * expose), the right to delete the post (403 "User cannot restore trashed
 * posts") and, for `context=edit`, the right to edit it (403 "User cannot
 * edit post"), all before any change. A post not in the trash is answered
 * unchanged.
 */
export async function restoreTrashedPost(deps: RestoreDeps, request: RestoreRequest): Promise<Post> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const found = await store.findPost(site.id, request.postId);
  if (!found || !exposes(site, found.type)) throw unknownPost();
  const before = postCapabilities(roleCapabilities, viewer.id, found);
  if (!before.delete_post) throw cannotRestore();
  if (request.context === 'edit' && !before.edit_post) throw cannotEdit();

  let post = found;
  if (found.status === 'trash') {
    // Whether this call or a concurrent one made the transition, the answer is the post as it now is:
    // what this call wrote over what it read (nothing else of a post changes through this API), or,
    // when another call made the transition, the post read again.
    const restored = await store.restorePost(found.id, new Date());
    deps.onRestore?.(restored ? 'restored' : 'unchanged');
    if (restored) {
      post = { ...found, ...restored, trash: null };
    } else {
      const current = await store.findPost(site.id, found.id);
      if (!current) throw unknownPost();
      post = current;
    }
  } else {
    deps.onRestore?.('unchanged');
  }
  return presentPost(deps, { site, post, viewer, roleCapabilities, context: request.context, meta: request.meta });
}
