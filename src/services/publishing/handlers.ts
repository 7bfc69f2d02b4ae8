import { openApiDocumentHandler } from '../../platform/docs/servedContract.js';
import type { HandlerInput } from '../../platform/pipeline/handlerTypes.js';
import { clientAddress } from '../../platform/security/limits.js';
import type * as T from '../../../generated/publishing/types.gen.js';
import { ANONYMOUS_VIEWER, type Viewer } from './domain/access.js';
import { postContext } from './domain/context.js';
import { trashOrDeletePost } from './flows/delete.js';
import { eachPost } from './flows/bulk.js';
import { countPosts } from './flows/counts.js';
import { listPosts } from './flows/list.js';
import { readMyPostLike, readPost, readPostBySlug, readPostLikes, readPostReplies, readSite } from './flows/read.js';
import { restoreTrashedPost } from './flows/restore.js';
import { createPost, updatePost } from './flows/write.js';
import { phpInputCasts } from './http/phpCast.js';
import { wantedFields } from './http/present.js';
import { withinGrant } from './domain/grantScope.js';
import { type MySitesRequest, readMe, readMySites } from './flows/me.js';
import { publishingUnauthenticated } from './errors.js';
import type { PublishingHandlers, PublishingPrincipal } from './operations.js';
import type { PublishingDeps } from './deps.js';
import type { FlowDeps } from './flows/deps.js';
import { listPostTypes } from './flows/postTypes.js';
import { autosavePost, readAutosave } from './flows/autosave.js';
import { postDiffs } from './flows/diffs.js';
import { mediaHandlers } from './mediaHandlers.js';
import { categoryAndTagHandlers, taxonomyHandlers } from './taxonomyHandlers.js';

/** The user an operation that requires a token acts as (the pipeline answers 401 before; the type still allows anonymous). */
function userIdOf(principal: PublishingPrincipal): number {
  if (principal.kind !== 'user') throw publishingUnauthenticated('missing');
  return principal.userId;
}

/** The caller of an operation that needs no token: the user a token names, or the anonymous viewer. */
const viewerOf = (principal: PublishingPrincipal): Viewer =>
  principal.kind === 'user' ? { id: principal.userId, loggedIn: true } : ANONYMOUS_VIEWER;

/** The operations that change posts: writes, trashing and restoring, one post or several. */
type PostChangeData =
  | T.CreatePostData
  | T.UpdatePostData
  | T.CreatePostV12Data
  | T.UpdatePostV12Data
  | T.DeletePostData
  | T.RestorePostData
  | T.BulkDeletePostsData
  | T.BulkRestorePostsData;

/** What every change of posts takes from a request: the site, the user who asks, and how to show the posts. */
const changeBy = ({ path, query, principal }: HandlerInput<PostChangeData, PublishingPrincipal>) => ({
  site: path.site,
  viewerId: userIdOf(principal),
  context: postContext(query.context),
  meta: query.meta,
});

/** What a change of one post takes from a request: the post, and what every change takes. */
const postChange = (
  input: HandlerInput<
    T.UpdatePostData | T.UpdatePostV12Data | T.DeletePostData | T.RestorePostData,
    PublishingPrincipal
  >,
) => ({
  ...changeBy(input),
  postId: input.path.post_ID,
});

/** What `GET /me/sites` takes from a request (v1.1 and v1.2 alike): who asks, which sites, which options. */
const mySitesRequest = (
  { query, principal }: HandlerInput<T.GetMySitesData | T.GetMySitesV12Data, PublishingPrincipal>,
  version: '1.1' | '1.2',
): MySitesRequest => ({
  userId: userIdOf(principal),
  grant: principal.kind === 'user' ? principal.grant : undefined,
  version,
  siteVisibility: query?.site_visibility,
  filters: query?.filters,
  options: wantedFields(query?.options),
});

/** The publishing handler map: one function per operationId of `openapi/publishing.yaml`. */
export function createPublishingHandlers(deps: PublishingDeps): PublishingHandlers {
  /** The flows' deps of a read: the read store, and the primary where a scheduled post whose date has come is published. */
  const readDeps: FlowDeps = { ...deps, store: deps.readStore, primary: deps.store };
  /** The deps as the caller sees them (writes, and reads): an OAuth token's stores only on the sites its grant covers (see `withinGrant`). */
  const scopedTo = (principal: PublishingPrincipal): { deps: FlowDeps; reads: FlowDeps } => {
    if (principal.kind !== 'user' || !principal.grant) return { deps, reads: readDeps };
    const { grant } = principal;
    const store = withinGrant(deps.store, grant);
    return { deps: { ...deps, store }, reads: { ...deps, store: withinGrant(deps.readStore, grant), primary: store } };
  };
  /** The endpoint layer's casting step over this contract's operations (`http/phpCast.ts`). */
  const casts = phpInputCasts(deps.contract);
  /** The revisions of a post or a page, each beside the one before it. */
  const diffs = ({ path, principal }: HandlerInput<T.GetPostDiffsData | T.GetPageDiffsData, PublishingPrincipal>) =>
    postDiffs(scopedTo(principal).deps, { site: path.site, postId: path.post_ID, viewerId: userIdOf(principal) });
  /** The likers of a post (v1.1 and v1.2 alike). */
  const postLikes = async ({
    path,
    query,
    principal,
  }: HandlerInput<T.GetPostLikesData | T.GetPostLikesV12Data, PublishingPrincipal>) => {
    const { reads } = scopedTo(principal);
    const request = { site: path.site, postId: path.post_ID, viewer: viewerOf(principal), number: query.number };
    return { status: 200 as const, body: await readPostLikes(reads, request) };
  };
  /**
   * The site's posts; `fields` keeps the named keys of each post, as the presenter applies it
   * (`publishingPresenter`). v1.1 and v1.2 alike: the same parameters (one list of them in the contract, cast
   * as the list's), only their answers' `url` type differs.
   */
  const postList = async ({
    path,
    query: given,
    principal,
    ctx,
  }: HandlerInput<T.ListPostsData | T.ListPostsV12Data, PublishingPrincipal>) => {
    const { reads } = scopedTo(principal);
    // Cast as the platform's `query_args()`: `number` an integer, an unknown `order`, `order_by` or `sticky` its default.
    const query = casts.query('listPosts', given);
    const list = await listPosts(reads, {
      site: path.site,
      viewer: viewerOf(principal),
      context: postContext(query.context),
      meta: query.meta,
      status: query.status,
      type: query.type,
      number: query.number,
      offset: query.offset,
      page: query.page,
      pageHandle: query.page_handle,
      order: query.order,
      orderBy: query.order_by,
      after: query.after,
      before: query.before,
      modifiedAfter: query.modified_after,
      modifiedBefore: query.modified_before,
      search: query.search,
      caller: clientAddress(ctx),
      author: query.author,
      sticky: query.sticky,
      tag: query.tag,
      category: query.category,
      term: query.term,
      exclude: query.exclude,
      excludeTree: query.exclude_tree,
      parentId: query.parent_id,
      metaKey: query.meta_key,
      metaValue: query.meta_value,
      metaFields: query.meta_fields,
      fields: wantedFields(query.fields),
    });
    return { status: 200 as const, body: list };
  };
  /** The counts of posts by status (`max_version` 1.2 on the platform), v1.1 and v1.2 alike. */
  const postCounts = async ({
    path,
    query,
    principal,
  }: HandlerInput<T.GetPostCountsData | T.GetPostCountsV12Data, PublishingPrincipal>) => {
    const { reads } = scopedTo(principal);
    const request = { site: path.site, type: path.post_type, viewer: viewerOf(principal), author: query.author };
    return { status: 200 as const, body: await countPosts(reads, request) };
  };
  /** One post, v1.1 and v1.2 alike. */
  const onePost = async ({
    path,
    query,
    principal,
  }: HandlerInput<T.GetPostData | T.GetPostV12Data, PublishingPrincipal>) => {
    const { reads } = scopedTo(principal);
    const viewer = viewerOf(principal);
    const post = await readPost(reads, {
      site: path.site,
      postId: path.post_ID,
      viewer,
      context: postContext(query.context),
      meta: query.meta,
      fields: wantedFields(query.fields),
    });
    return { status: 200 as const, body: post };
  };
  const handlers: PublishingHandlers = {
    ...mediaHandlers(scopedTo, deps, casts),
    ...taxonomyHandlers({ scopedTo, viewerOf, userIdOf, casts }),
    ...categoryAndTagHandlers({ scopedTo, viewerOf, userIdOf, casts }),
    /** Who the token acts for (`/me`): the user, their primary site among those the token may use. */
    async getMe({ principal }) {
      const userId = userIdOf(principal);
      return {
        status: 200,
        body: await readMe(readDeps, { userId, grant: principal.kind === 'user' ? principal.grant : undefined }),
      };
    },
    async getMySites(input) {
      return { status: 200, body: await readMySites(readDeps, mySitesRequest(input, '1.1')) };
    },
    async getMySitesV12(input) {
      return { status: 200, body: await readMySites(readDeps, mySitesRequest(input, '1.2')) };
    },
    async getSite({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const request = { site: path.site, viewer: viewerOf(principal), options: wantedFields(query?.options) };
      return { status: 200, body: await readSite(reads, request) };
    },
    getPostLikes: postLikes,
    /** "Do I like this post?": what a like button shows (a token is needed: 403 `authorization_required` without one). */
    async getMyPostLike({ path, principal }) {
      const { reads } = scopedTo(principal);
      return {
        status: 200,
        body: await readMyPostLike(reads, { site: path.site, postId: path.post_ID, viewer: viewerOf(principal) }),
      };
    },
    async getPostReplies({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const request = { site: path.site, postId: path.post_ID, viewer: viewerOf(principal), number: query.number };
      return { status: 200, body: await readPostReplies(reads, request) };
    },
    listPosts: postList,
    async getPostBySlug({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const request = {
        site: path.site,
        slug: path.post_slug,
        viewer: viewerOf(principal),
        context: postContext(query.context),
        meta: query.meta,
        fields: wantedFields(query.fields),
      };
      return { status: 200, body: await readPostBySlug(reads, request) };
    },
    getPostCounts: postCounts,
    getPost: onePost,
    async createPost(input) {
      const request = { ...changeBy(input), body: casts.body('createPost', input.body) };
      return { status: 200, body: await createPost(scopedTo(input.principal).deps, request) };
    },
    async updatePost(input) {
      const request = { ...postChange(input), body: casts.body('updatePost', input.body) };
      return { status: 200, body: await updatePost(scopedTo(input.principal).deps, request) };
    },
    /** Each post trashed (or deleted for good) by the single delete's rules, answered under its ID. */
    async bulkDeletePosts(input) {
      const { deps } = scopedTo(input.principal);
      const request = { ...changeBy(input), postIds: input.body.post_ids };
      return { status: 200, body: await eachPost(deps.store, (one) => trashOrDeletePost(deps, one), request) };
    },
    /** Each post restored by the single restore's rules, answered under its ID. */
    async bulkRestorePosts(input) {
      const { deps } = scopedTo(input.principal);
      const request = { ...changeBy(input), postIds: input.body.post_ids };
      return { status: 200, body: await eachPost(deps.store, (one) => restoreTrashedPost(deps, one), request) };
    },
    async deletePost(input) {
      return { status: 200, body: await trashOrDeletePost(scopedTo(input.principal).deps, postChange(input)) };
    },
    async restorePost(input) {
      return { status: 200, body: await restoreTrashedPost(scopedTo(input.principal).deps, postChange(input)) };
    },
    getOpenApiDocument: openApiDocumentHandler(deps.contract),
    // REST v1.2: the v1.1 list, reads, counts and likers as they are (the steps above); writes with v1.2's term fields (see `applyWriteFields`).
    listPostsV12: postList,
    getPostV12: onePost,
    getPostCountsV12: postCounts,
    getPostLikesV12: postLikes,
    async createPostV12(input) {
      const body = casts.body('createPostV12', input.body);
      const request = { ...changeBy(input), body, termNaming: 'names' as const, answerExisting: true };
      return { status: 200, body: await createPost(scopedTo(input.principal).deps, request) };
    },
    async updatePostV12(input) {
      const request = {
        ...postChange(input),
        body: casts.body('updatePostV12', input.body),
        termNaming: 'names' as const,
      };
      return { status: 200, body: await updatePost(scopedTo(input.principal).deps, request) };
    },
    async listPostTypes({ path, principal }) {
      return {
        status: 200,
        body: await listPostTypes(scopedTo(principal).reads, { site: path.site, viewer: viewerOf(principal) }),
      };
    },
    async getPostAutosave({ path, principal }) {
      const request = { site: path.site, postId: path.post_ID, viewerId: userIdOf(principal) };
      return { status: 200, body: await readAutosave(scopedTo(principal).deps, request) };
    },
    async autosavePost({ path, body, principal }) {
      const request = { site: path.site, postId: path.post_ID, viewerId: userIdOf(principal), body };
      return { status: 200, body: await autosavePost(scopedTo(principal).deps, request) };
    },
    async getPostDiffs(input) {
      return { status: 200, body: await diffs(input) };
    },
    async getPageDiffs(input) {
      return { status: 200, body: await diffs(input) };
    },
  };
  return handlers;
}
