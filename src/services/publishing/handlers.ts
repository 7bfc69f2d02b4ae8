import type { Contract } from '../../platform/http/contract.js';
import { openApiDocumentHandler, type HandlerInput } from '../../platform/http/handlers.js';
import type * as T from '../../../generated/publishing/types.gen.js';
import { ANONYMOUS_VIEWER, type Viewer } from './domain/access.js';
import { postContext } from './domain/context.js';
import { trashOrDeletePost } from './domain/delete.js';
import { readMyPostLike, readPost, readPostLikes, readPostReplies, readSite } from './domain/read.js';
import { restoreTrashedPost } from './domain/restore.js';
import { withinGrant } from './domain/grantScope.js';
import { publishingUnauthenticated } from './errors.js';
import type { PublishingHandlers, PublishingPrincipal } from './operations.js';
import type { PublishingStore } from './store/publishingStore.js';

export interface PublishingHandlerDeps {
  contract: Contract;
  /** The primary: trash, restore, delete, and every read that must see its own write. */
  store: PublishingStore;
  /** Where the read operations read (a replica when configured; by default `store`): at most the replica's lag behind. */
  readStore?: PublishingStore;
  /** Base of absolute API links (`PUBLIC_URL`). */
  publicUrl: string;
  /** Base of the wp.me-style short links (`PUBLISHING_SHORTLINK_BASE`). */
  shortlinkBase: string;
  onRestore?: (outcome: 'restored' | 'unchanged') => void;
  onDelete?: (outcome: 'trashed' | 'deleted' | 'unchanged') => void;
}

/** The user an operation that requires a token acts as (the pipeline answers 401 before; the type still allows anonymous). */
function userIdOf(principal: PublishingPrincipal): number {
  if (principal.kind !== 'user') throw publishingUnauthenticated('missing');
  return principal.userId;
}

/** The caller of an operation that needs no token: the user a token names, or the anonymous viewer. */
const viewerOf = (principal: PublishingPrincipal): Viewer =>
  principal.kind === 'user' ? { id: principal.userId, loggedIn: true } : ANONYMOUS_VIEWER;

/** What trashing and restoring a post take from a request: the post, the user who asks, and how to show the post. */
const postChange = ({ path, query, principal }: HandlerInput<T.DeletePostData | T.RestorePostData, PublishingPrincipal>) => ({
  site: path.site,
  postId: path.post_ID,
  viewerId: userIdOf(principal),
  context: postContext(query.context),
  meta: query.meta,
});

/** The publishing handler map: one function per operationId of `openapi/publishing.yaml`. */
export function createPublishingHandlers(unscoped: PublishingHandlerDeps): PublishingHandlers {
  const readsOf = (deps: PublishingHandlerDeps) => (deps.readStore ? { ...deps, store: deps.readStore } : deps);
  const unscopedReads = readsOf(unscoped);
  /** The stores as the caller sees them: an OAuth token's only on the sites its grant covers (see `withinGrant`). */
  const scopedTo = (principal: PublishingPrincipal) => {
    if (principal.kind !== 'user' || !principal.grant) return { deps: unscoped, reads: unscopedReads };
    const { grant } = principal;
    const deps = { ...unscoped, store: withinGrant(unscoped.store, grant), readStore: unscoped.readStore && withinGrant(unscoped.readStore, grant) };
    return { deps, reads: readsOf(deps) };
  };
  return {
    async getSite({ path, principal }) {
      const { reads } = scopedTo(principal);
      return { status: 200, body: await readSite(reads, { site: path.site, viewer: viewerOf(principal) }) };
    },
    async getPostLikes({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const request = { site: path.site, postId: path.post_ID, viewer: viewerOf(principal), number: query.number };
      return { status: 200, body: await readPostLikes(reads, request) };
    },
    /** "Do I like this post?": what a like button shows (a token is needed: 403 `authorization_required` without one). */
    async getMyPostLike({ path, principal }) {
      const { reads } = scopedTo(principal);
      return { status: 200, body: await readMyPostLike(reads, { site: path.site, postId: path.post_ID, viewer: viewerOf(principal) }) };
    },
    async getPostReplies({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const request = { site: path.site, postId: path.post_ID, viewer: viewerOf(principal), number: query.number };
      return { status: 200, body: await readPostReplies(reads, request) };
    },
    async getPost({ path, query, principal }) {
      const { reads } = scopedTo(principal);
      const viewer = viewerOf(principal);
      const post = await readPost(reads, { site: path.site, postId: path.post_ID, viewer, context: postContext(query.context), meta: query.meta });
      return { status: 200, body: post };
    },
    async deletePost(input) {
      return { status: 200, body: await trashOrDeletePost(scopedTo(input.principal).deps, postChange(input)) };
    },
    async restorePost(input) {
      return { status: 200, body: await restoreTrashedPost(scopedTo(input.principal).deps, postChange(input)) };
    },
    getOpenApiDocument: openApiDocumentHandler(unscoped.contract),
  };
}
