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

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/v3';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {
  getAvatar: '/avatar',
} as const;
