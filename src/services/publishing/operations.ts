import type * as sdk from '../../../generated/publishing/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/publishing/contract.gen.js';
import type { SameKeys, SdkOperations } from '../../platform/pipeline/handlerTypes.js';
import type { ServiceTypes } from '../../platform/serviceTypes.js';
import type { GrantScope } from './domain/grantScope.js';
import type * as T from '../../../generated/publishing/types.gen.js';

/** The operations of `openapi/publishing.yaml`; `getMediaFile` answers the file's bytes (the generated type says `Blob`, a client's view). */
export type PublishingOperations = Omit<Operations, 'getMediaFile'> & {
  getMediaFile: {
    data: T.GetMediaFileData;
    responses: { 200: Buffer; 304: undefined };
    headers: Operations['getMediaFile']['headers'];
  };
};

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const publishingOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof Operations> = true;

/**
 * The caller of a publishing operation: a user resolved from a bearer token
 * (an OAuth access token carries its grant: the sites it covers), or nobody.
 */
export type PublishingPrincipal = { kind: 'anonymous' } | { kind: 'user'; userId: number; grant?: GrantScope };

/** The module's types from `openapi/publishing.yaml` (see `ServiceTypes`). */
type Publishing = ServiceTypes<PublishingOperations, PublishingPrincipal, SecuritySchemeName>;
export type PublishingHandlers = Publishing['handlers'];
export type PublishingPolicies = Publishing['policies'];
export type PublishingDefinition = Publishing['definition'];
export type PublishingSecurity = Publishing['security'];

/** The operations of `Ops` whose contract declares no `callback` query parameter. */
export type WithoutCallback<Ops extends { [K in keyof Ops]: { data: { query?: unknown } } }> = {
  [K in keyof Ops]: 'callback' extends keyof NonNullable<Ops[K]['data']['query']> ? never : K;
}[keyof Ops];

/** True when every operation declares `callback`; else the names of those that do not. */
export type AllDeclareCallback<Ops extends { [K in keyof Ops]: { data: { query?: unknown } } }> = [
  WithoutCallback<Ops>,
] extends [never]
  ? true
  : WithoutCallback<Ops>;

/** Every answer may be JSONP, so every operation declares `callback`: the type check names one that does not. */
export const everyOperationDeclaresCallback: AllDeclareCallback<Operations> = true;
