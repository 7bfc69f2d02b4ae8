import type { Post } from '../../../../generated/publishing/types.gen.js';
import { cannotDelete, unknownPost, unknownPostType } from '../errors.js';
import { exposes, openSite, viewRefusal, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import type { FlowDeps } from './deps.js';
import { presentPost, type PresentDeps } from './presentPost.js';

export type DeleteDeps = PresentDeps & Pick<FlowDeps, 'onDelete'>;

export interface DeleteRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  postId: number;
  viewerId: number;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
}

/**
 * The platform's delete operation: moves a post to the trash (the same
 * store transition as the admin `posts trash` command), or deletes a post
 * that is already in the trash for good. Order of checks, all before any
 * change: site (404 `unknown_blog`; a private site only for its users), post
 * (404 `unknown_post`), a type the site does not expose (404
 * `unknown_post_type`), the right to delete it (403 "User cannot delete
 * posts"), and the right to see it as asked (see `viewRefusal`). Answers the
 * trashed post, or the deleted one as it was just before with status
 * `deleted`. A concurrent change wins over this call: the answer is then the
 * post as it now is.
 */
export async function trashOrDeletePost(deps: DeleteDeps, request: DeleteRequest): Promise<Post> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const found = await store.findPost(site.id, request.postId);
  if (!found) throw unknownPost();
  if (!exposes(site, found.type)) throw unknownPostType();
  const capabilities = postCapabilities(roleCapabilities, viewer.id, found);
  if (!capabilities.delete_post) throw cannotDelete();
  const refusal = viewRefusal(found, viewer, roleCapabilities, capabilities, request.context);
  if (refusal) throw refusal;

  const presenting = { site, viewer, roleCapabilities, context: request.context, meta: request.meta };
  if (found.status === 'trash') {
    // The answer to a deletion for good is the post as it was, so it is presented before it goes.
    const before = await presentPost(deps, { ...presenting, post: found });
    if (await store.deletePostForGood(found.id)) {
      deps.onDelete?.('deleted');
      return { ...before, status: 'deleted' };
    }
    deps.onDelete?.('unchanged');
  } else {
    deps.onDelete?.((await store.trashPost(found.id, new Date())) ? 'trashed' : 'unchanged');
  }
  const current = await store.findPost(site.id, found.id);
  if (!current) throw unknownPost();
  return presentPost(deps, { ...presenting, post: current });
}
