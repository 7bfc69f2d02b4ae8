import type * as sdk from '../../../generated/developer/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/developer/contract.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/pipeline/handlerTypes.js';
import type { CredentialResolver, ServiceDefinition } from '../../platform/pipeline/service.js';

/** The operations of `openapi/developer.yaml` with their generated request and response types. */
export type DeveloperOperations = Operations;

/** A live dashboard session, resolved from the session cookie. */
export interface ActiveSession {
  tokenHash: string;
  accountId: string;
  email: string;
  /** Whether the account's address is verified (applications need it). */
  emailVerified: boolean;
  expiresAt: string;
  /** The token `X-CSRF-Token` must carry on calls that change something. */
  csrfToken: string;
}

/** Who is calling: nobody yet, or the account of a live session. */
export type DeveloperPrincipal = { kind: 'anonymous' } | { kind: 'session'; session: ActiveSession };

export type DeveloperHandlers = HandlerMap<DeveloperOperations, DeveloperPrincipal>;

/** One policy (admit steps) per operation of the contract. */
export type DeveloperPolicies = PolicyTable<DeveloperOperations, DeveloperPrincipal>;

/** The developer service as its module defines it, typed by its contract (no policy writes a header the contract requires). */
export type DeveloperDefinition = ServiceDefinition<DeveloperPrincipal, DeveloperOperations>;

/** One credential resolver per security scheme of the contract; a missing or unknown one fails the type check. */
export type DeveloperSecurity = Readonly<Record<SecuritySchemeName, CredentialResolver<DeveloperPrincipal>>>;

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const developerOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof DeveloperOperations> = true;
