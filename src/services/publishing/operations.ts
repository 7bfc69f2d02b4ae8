import type * as sdk from '../../../generated/publishing/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/publishing/contract.gen.js';
import type { HandlerMap, PolicyTable, SameKeys, SdkOperations } from '../../platform/pipeline/handlerTypes.js';
import type { CredentialResolver, ServiceDefinition } from '../../platform/pipeline/service.js';
import type { GrantScope } from './domain/grantScope.js';

/** The operations of `openapi/publishing.yaml` with their generated request and response types. */
export type PublishingOperations = Operations;

/**
 * The caller of a publishing operation: a user resolved from a bearer token
 * (an OAuth access token carries its grant: the sites it covers), or nobody.
 */
export type PublishingPrincipal = { kind: 'anonymous' } | { kind: 'user'; userId: number; grant?: GrantScope };

export type PublishingHandlers = HandlerMap<PublishingOperations, PublishingPrincipal>;

/** One policy (presenter) per operation of the contract. */
export type PublishingPolicies = PolicyTable<PublishingOperations, PublishingPrincipal>;

/** The publishing service as its module defines it, typed by its contract (no policy writes a header the contract requires). */
export type PublishingDefinition = ServiceDefinition<PublishingPrincipal, PublishingOperations>;

/** One credential resolver per security scheme of the contract; a missing or unknown one fails the type check. */
export type PublishingSecurity = Readonly<Record<SecuritySchemeName, CredentialResolver<PublishingPrincipal>>>;

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const publishingOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof PublishingOperations> = true;

/** The operations of `Ops` whose contract declares no `callback` query parameter. */
export type WithoutCallback<Ops extends { [K in keyof Ops]: { data: { query?: unknown } } }> = {
  [K in keyof Ops]: 'callback' extends keyof NonNullable<Ops[K]['data']['query']> ? never : K;
}[keyof Ops];

/** True when every operation declares `callback`; else the names of those that do not. */
export type AllDeclareCallback<Ops extends { [K in keyof Ops]: { data: { query?: unknown } } }> = [WithoutCallback<Ops>] extends [never] ? true : WithoutCallback<Ops>;

/** Every answer may be JSONP, so every operation declares `callback`: the type check names one that does not. */
export const everyOperationDeclaresCallback: AllDeclareCallback<PublishingOperations> = true;
