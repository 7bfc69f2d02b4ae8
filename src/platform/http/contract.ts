/**
 * A contract loaded and compiled for the pipeline; each concern lives in
 * `contract/`, and this file hands their public names on to the services.
 */
export type { Contract, ContractOperation, ResponseHeaders, SecurityScheme } from './contract/types.js';
export { describeErrors, openApiAjv, sharedAjv } from './contract/ajv.js';
export { compileContract, parseContractYaml, type CompiledContract } from './contract/load.js';
export { loadContract } from './contract/compile.js';
export { loadContractOnce } from './contract/cache.js';
