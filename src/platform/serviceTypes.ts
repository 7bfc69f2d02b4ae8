import type { HandlerMap, OperationMap, PolicyHeaders, PolicyTable } from './pipeline/handlerTypes.js';
import type { CredentialResolver, ServiceDefinition } from './pipeline/service.js';

/**
 * The types a service's module is written against, from its generated
 * contract (`generated/<service>/contract.gen.ts`: `Operations`,
 * `SecuritySchemeName`), its caller and the headers its policies write.
 * Each `src/services/<name>/operations.ts` names its own once
 * (`ServiceTypes<Operations, XPrincipal, SecuritySchemeName>`) and reads
 * the members.
 */
export interface ServiceTypes<
  Ops extends OperationMap<Ops>,
  Principal,
  Scheme extends string,
  W extends PolicyHeaders<Ops> = {},
> {
  /** The operations of the contract with their generated request and response types. */
  operations: Ops;
  /** The handler map: one function per operationId of the contract. */
  handlers: HandlerMap<Ops, Principal, W>;
  /** One policy (admit steps, presenter) per operation of the contract, with the steps that write what `W` says. */
  policies: PolicyTable<Ops, Principal, W>;
  /** The service as its module defines it, typed by its contract (no policy writes a header the contract requires). */
  definition: ServiceDefinition<Principal, Ops, W>;
  /** One credential resolver per security scheme of the contract; a missing or unknown one fails the type check. */
  security: Readonly<Record<Scheme, CredentialResolver<Principal>>>;
}
