import type * as sdk from '../../../generated/developer/sdk.gen.js';
import type * as T from '../../../generated/developer/types.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/http/handlers.js';

/** The operations of `openapi/developer.yaml` with their generated request and response types. */
export interface DeveloperOperations {
  signUp: { data: T.SignUpData; responses: T.SignUpResponses };
  logIn: { data: T.LogInData; responses: T.LogInResponses };
  getSession: { data: T.GetSessionData; responses: T.GetSessionResponses };
  logOut: { data: T.LogOutData; responses: T.LogOutResponses };
  listApplications: { data: T.ListApplicationsData; responses: T.ListApplicationsResponses };
  createApplication: { data: T.CreateApplicationData; responses: T.CreateApplicationResponses };
  rotateApplicationKey: { data: T.RotateApplicationKeyData; responses: T.RotateApplicationKeyResponses };
  revokeApiKey: { data: T.RevokeApiKeyData; responses: T.RevokeApiKeyResponses };
  deleteApplication: { data: T.DeleteApplicationData; responses: T.DeleteApplicationResponses };
  getOpenApiDocument: { data: T.GetOpenApiDocumentData; responses: T.GetOpenApiDocumentResponses };
}

/** A live dashboard session, resolved from the session cookie. */
export interface ActiveSession {
  tokenHash: string;
  accountId: string;
  email: string;
  expiresAt: string;
  /** The token `X-CSRF-Token` must carry on calls that change something. */
  csrfToken: string;
}

/** Who is calling: nobody yet, or the account of a live session. */
export type DeveloperPrincipal = { kind: 'anonymous' } | { kind: 'session'; session: ActiveSession };

export type DeveloperHandlers = HandlerMap<DeveloperOperations, DeveloperPrincipal>;

/** One policy (admit steps) per operation of the contract. */
export type DeveloperPolicies = PolicyTable<DeveloperOperations, DeveloperPrincipal>;

/** Fails the type check when the contract gains or loses an operation that this list does not. */
export const developerOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof DeveloperOperations> = true;
