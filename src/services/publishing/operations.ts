import type * as sdk from '../../../generated/publishing/sdk.gen.js';
import type * as T from '../../../generated/publishing/types.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/http/handlers.js';

/** The operations of `openapi/publishing.yaml` with their generated request and response types. */
export interface PublishingOperations {
  getSite: { data: T.GetSiteData; responses: T.GetSiteResponses };
  getPost: { data: T.GetPostData; responses: T.GetPostResponses };
  getPostLikes: { data: T.GetPostLikesData; responses: T.GetPostLikesResponses };
  getMyPostLike: { data: T.GetMyPostLikeData; responses: T.GetMyPostLikeResponses };
  getPostReplies: { data: T.GetPostRepliesData; responses: T.GetPostRepliesResponses };
  deletePost: { data: T.DeletePostData; responses: T.DeletePostResponses };
  restorePost: { data: T.RestorePostData; responses: T.RestorePostResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** The caller of a publishing operation: a user resolved from a bearer token, or nobody. */
export type PublishingPrincipal = { kind: 'anonymous' } | { kind: 'user'; userId: number };

export type PublishingHandlers = HandlerMap<PublishingOperations, PublishingPrincipal>;

/** One policy (presenter) per operation of the contract. */
export type PublishingPolicies = PolicyTable<PublishingOperations, PublishingPrincipal>;

/** Fails the type check when the contract gains or loses an operation that this list does not. */
export const publishingOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof PublishingOperations> = true;
