import type * as sdk from '../../../generated/developer/sdk.gen.js';
import type { Operations, SecuritySchemeName } from '../../../generated/developer/contract.gen.js';
import type { SameKeys, SdkOperations } from '../../platform/pipeline/handlerTypes.js';
import type { ServiceTypes } from '../../platform/serviceTypes.js';
import type { ActiveSession } from './flows/sessions.js';

/** Fails the type check when the generated operations and the generated SDK ever name different operations. */
export const developerOperationsMatchContract: SameKeys<SdkOperations<typeof sdk>, keyof Operations> = true;

/** Who is calling: nobody yet, or the account of a live session. */
export type DeveloperPrincipal = { kind: 'anonymous' } | { kind: 'session'; session: ActiveSession };

/** The module's types from `openapi/developer.yaml` (see `ServiceTypes`). */
type Developer = ServiceTypes<Operations, DeveloperPrincipal, SecuritySchemeName>;
export type DeveloperHandlers = Developer['handlers'];
export type DeveloperPolicies = Developer['policies'];
export type DeveloperDefinition = Developer['definition'];
export type DeveloperSecurity = Developer['security'];
