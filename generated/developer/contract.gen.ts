// This file is generated from openapi/developer.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/** The operations of the contract by operationId, with their generated request and response types. */
export interface Operations {
  signUp: { data: T.SignUpData; responses: T.SignUpResponses };
  getSession: { data: T.GetSessionData; responses: T.GetSessionResponses };
  logIn: { data: T.LogInData; responses: T.LogInResponses };
  logOut: { data: T.LogOutData; responses: T.LogOutResponses };
  listApplications: { data: T.ListApplicationsData; responses: T.ListApplicationsResponses };
  createApplication: { data: T.CreateApplicationData; responses: T.CreateApplicationResponses };
  deleteApplication: { data: T.DeleteApplicationData; responses: T.DeleteApplicationResponses };
  rotateApplicationKey: { data: T.RotateApplicationKeyData; responses: T.RotateApplicationKeyResponses };
  revokeApiKey: { data: T.RevokeApiKeyData; responses: T.RevokeApiKeyResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'sessionCookie';
