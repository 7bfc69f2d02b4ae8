import type { MyPostLike, Post, PostLikes, PostReplies, Site } from '../../../../generated/publishing/types.gen.js';
import { invalidPostSlug, likeNeedsToken, unknownPost } from '../errors.js';
import type { PostRecord, SiteRecord } from '../domain/records.js';
import { ancestorsFor, exposes, openSite, viewRefusal, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import { myPostLike, postLikes, postReplies, siteObject } from './metaData.js';
import { slugFromTitle } from './postObject.js';
import { publishedWhenDue } from './schedule.js';
import { presentPost, type PresentDeps } from './presentPost.js';

export interface ReadSiteRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  viewer: Viewer;
}

export interface ReadRequest extends ReadSiteRequest {
  postId: number;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
  /** The keys asked for (`fields`); undefined: every key. Only those are built (see `PresentRequest.fields`). */
  fields?: ReadonlySet<string>;
}

/**
 * The post a viewer asks for, in the real order of checks: site (404
 * `unknown_blog`; a private site only for its users), post (404
 * `unknown_post`, also for a type the site does not expose), then whether
 * the viewer may see it as asked (see `viewRefusal`).
 */
async function readablePost(deps: PresentDeps, request: ReadSiteRequest & { postId: number; context: PostContext }) {
  const { viewer } = request;
  // Before the post is read: a presentation kept under it shows the post as read after it.
  const mark = deps.presentedPosts && deps.store.changeMark();
  const { site, roleCapabilities } = await openSite(deps.store, request.site, viewer);
  const found = await deps.store.findPost(site.id, request.postId);
  if (!found || !exposes(site, found.type)) throw unknownPost();
  const post = await publishedWhenDue(deps, found);
  const refusal = viewRefusal(
    post,
    viewer,
    roleCapabilities,
    postCapabilities(roleCapabilities, viewer.id, post),
    request.context,
  );
  if (refusal) throw refusal;
  return { site, post, roleCapabilities, mark };
}

/** Answers a post as the post object, for a viewer who may see it (see `readablePost`). */
export async function readPost(deps: PresentDeps, request: ReadRequest): Promise<Post> {
  const { site, post, roleCapabilities, mark } = await readablePost(deps, request);
  return presentPost(deps, {
    site,
    post,
    viewer: request.viewer,
    roleCapabilities,
    context: request.context,
    meta: request.meta,
    mark,
    fields: request.fields,
  });
}

/**
 * Answers the post a slug names, as the platform's `slug:` read finds it:
 * the slug made a slug (400 `invalid_post` when nothing is left), the newest
 * published post of an exposed type holding it (404 `unknown_post`), then
 * the read rules (see `viewRefusal`), as reading it by ID.
 */
export async function readPostBySlug(
  deps: PresentDeps,
  request: ReadSiteRequest & {
    slug: string;
    context: PostContext;
    meta: string | undefined;
    fields?: ReadonlySet<string>;
  },
): Promise<Post> {
  const slug = slugFromTitle(request.slug);
  if (!slug) throw invalidPostSlug();
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const found = await deps.store.findPublishedPostBySlug(site.id, slug, ['post', 'page', ...site.extraPostTypes]);
  if (!found) throw unknownPost();
  return readPost(deps, { ...request, postId: found.id });
}

/** Answers a site (a post object's `meta.links.site`): 404 `unknown_blog`; a private site only for its users. */
export async function readSite(
  deps: PresentDeps,
  request: ReadSiteRequest & { options?: ReadonlySet<string> },
): Promise<Site> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  return siteObject(
    { store: deps.store, publicUrl: deps.publicUrl, site, viewerId: request.viewer.id },
    { options: request.options },
  );
}

/** Where a post's links are built from: the post, its site and its ancestors. */
async function linkSource(
  deps: PresentDeps,
  { site, post, roleCapabilities }: { site: SiteRecord; post: PostRecord; roleCapabilities: ReadonlySet<string> },
  viewer: Viewer,
) {
  const ancestors = ancestorsFor(await deps.store.ancestorsOf(post), viewer, roleCapabilities);
  return { ...deps, site, post, ancestors, viewerId: viewer.id };
}

/** Answers who likes a post (its `meta.links.likes`), for a viewer who may read the post. */
export async function readPostLikes(
  deps: PresentDeps,
  request: ReadSiteRequest & { postId: number; number?: number },
): Promise<PostLikes> {
  const readable = await readablePost(deps, { ...request, context: 'display' });
  return postLikes(await linkSource(deps, readable, request.viewer), request.number);
}

/**
 * Answers whether the caller likes a post, and how many do: the site and
 * post are checked first, as for reading the post (404, 403), then the
 * caller must be someone (403 `authorization_required` without a token).
 */
export async function readMyPostLike(
  deps: PresentDeps,
  request: ReadSiteRequest & { postId: number },
): Promise<MyPostLike> {
  const readable = await readablePost(deps, { ...request, context: 'display' });
  if (!request.viewer.loggedIn) throw likeNeedsToken();
  return myPostLike(await linkSource(deps, readable, request.viewer));
}

/** Answers the approved comments on a post (its `meta.links.replies`), for a viewer who may read the post. */
export async function readPostReplies(
  deps: PresentDeps,
  request: ReadSiteRequest & { postId: number; number?: number },
): Promise<PostReplies> {
  const readable = await readablePost(deps, { ...request, context: 'display' });
  return postReplies(await linkSource(deps, readable, request.viewer), request.number);
}
