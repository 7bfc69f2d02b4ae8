// This file is generated from openapi/profiles.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/** The operations of the contract by operationId, with their generated request and response types. */
export interface Operations {
  getProfileById: { data: T.GetProfileByIdData; responses: T.GetProfileByIdResponses };
  getAvatar: { data: T.GetAvatarData; responses: T.GetAvatarResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'apiKey';
