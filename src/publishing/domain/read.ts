import type { Post } from '../../../generated/publishing/types.gen.js';
import { unknownPost } from '../errors.js';
import { exposes, openSite, viewRefusal, type Viewer } from './access.js';
import { postCapabilities } from './capabilities.js';
import type { PostContext } from './context.js';
import { renderPost, type RenderDeps } from './renderPost.js';

export interface ReadRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  postId: number;
  viewer: Viewer;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
}

/**
 * Answers a post as the post object, in the real order of checks: site (404
 * `unknown_blog`; a private site only for its users), post (404
 * `unknown_post`, also for a type the site does not expose), then whether
 * the viewer may see it as asked (see `viewRefusal`).
 */
export async function readPost(deps: RenderDeps, request: ReadRequest): Promise<Post> {
  const { store } = deps;
  const { viewer } = request;
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const post = await store.findPost(site.id, request.postId);
  if (!post || !exposes(site, post.type)) throw unknownPost();
  const refusal = viewRefusal(post, viewer, roleCapabilities, postCapabilities(roleCapabilities, viewer.id, post), request.context);
  if (refusal) throw refusal;
  return renderPost(deps, { site, post, viewer, roleCapabilities, context: request.context, meta: request.meta });
}
