// This file is generated from openapi/developer.yaml by scripts/generate.ts (npm run generate); do not edit.

import type * as T from './types.gen.js';

/** The operations of the contract by operationId, with their generated request and response types. */
export interface Operations {
  signUp: { data: T.SignUpData; responses: T.SignUpResponses };
  getSession: { data: T.GetSessionData; responses: T.GetSessionResponses };
  logIn: { data: T.LogInData; responses: T.LogInResponses };
  logOut: { data: T.LogOutData; responses: T.LogOutResponses };
  resendVerification: { data: T.ResendVerificationData; responses: T.ResendVerificationResponses };
  verifyEmail: { data: T.VerifyEmailData; responses: T.VerifyEmailResponses };
  requestPasswordReset: { data: T.RequestPasswordResetData; responses: T.RequestPasswordResetResponses };
  resetPassword: { data: T.ResetPasswordData; responses: T.ResetPasswordResponses };
  listSessions: { data: T.ListSessionsData; responses: T.ListSessionsResponses };
  endSession: { data: T.EndSessionData; responses: T.EndSessionResponses };
  listApplications: { data: T.ListApplicationsData; responses: T.ListApplicationsResponses };
  createApplication: { data: T.CreateApplicationData; responses: T.CreateApplicationResponses };
  deleteApplication: { data: T.DeleteApplicationData; responses: T.DeleteApplicationResponses };
  rotateApplicationKey: { data: T.RotateApplicationKeyData; responses: T.RotateApplicationKeyResponses };
  revokeApiKey: { data: T.RevokeApiKeyData; responses: T.RevokeApiKeyResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** The names of the contract's security schemes (`components.securitySchemes`). */
export type SecuritySchemeName = 'sessionCookie';

/** The path prefix the service answers under: its server's path, with each variable at its default. */
export const PREFIX = '/developer/v1';

/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */
export const OWN_SERVER_PREFIXES = {} as const;
