// This file is generated from openapi/publishing.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/** The operations of the contract by operationId, with their generated request and response types. */
export interface Operations {
  getSite: { data: T.GetSiteData; responses: T.GetSiteResponses };
  getPost: { data: T.GetPostData; responses: T.GetPostResponses };
  getPostLikes: { data: T.GetPostLikesData; responses: T.GetPostLikesResponses };
  getMyPostLike: { data: T.GetMyPostLikeData; responses: T.GetMyPostLikeResponses };
  getPostReplies: { data: T.GetPostRepliesData; responses: T.GetPostRepliesResponses };
  deletePost: { data: T.DeletePostData; responses: T.DeletePostResponses };
  restorePost: { data: T.RestorePostData; responses: T.RestorePostResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'bearerToken';

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/rest/v1.1';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {} as const;
