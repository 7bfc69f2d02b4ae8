import addFormats from 'ajv-formats';
import type { ErrorObject, Options as AjvOptions } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * An Ajv for the JSON Schema dialect of OpenAPI 3.1 (2020-12), with the
 * `format`s of ajv-formats (uri, date-time, email; int32, int64, ...).
 * Not strict: OpenAPI schemas carry keywords of their own (`example`,
 * `discriminator`, `xml`) that are no JSON Schema keywords. A caller may
 * ask for the meta-schema check (`validateSchema: true`).
 */
export function openApiAjv(options: AjvOptions = {}): Ajv2020 {
  // Schemas are not checked against the 2020-12 meta-schema as they compile: that check costs
  // start-up time on every start for schemas that only change with the code. Every contract's schemas
  // are checked against it in a test instead (test/platform/http/contract.test.ts), and Redocly lints the contracts.
  const ajv = new Ajv2020({ validateSchema: false, ...options, strict: false });
  // ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
  (addFormats as unknown as { default: (a: Ajv2020) => Ajv2020 }).default(ajv);
  return ajv;
}

const ajvs = new Map<string, Ajv2020>();

/**
 * One `openApiAjv` per set of options in the process, shared by every
 * contract and operation. Each Ajv compiles the 2020-12 meta-schema (which
 * checks every schema before it is compiled) the first time it compiles
 * anything, and that costs more than compiling most contracts' schemas, so
 * a new Ajv per operation, as openapi-backend asks for, would spend most of
 * start-up on it. Schemas compiled in a shared Ajv must carry no `$id` of
 * their own, or a distinct one (see `compileResponseBodies`).
 */
export function sharedAjv(options: AjvOptions = {}): Ajv2020 {
  const key = JSON.stringify(options, Object.keys(options).sort());
  let ajv = ajvs.get(key);
  if (!ajv) ajvs.set(key, (ajv = openApiAjv(options)));
  return ajv;
}

/** One line naming the first failing location, e.g. `query.context: must be string`. */
export function describeErrors(errors: readonly ErrorObject[]): string {
  const [first] = errors;
  if (!first) return 'invalid';
  const where = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing =
    first.keyword === 'required' ? ` (${(first.params as { missingProperty: string }).missingProperty})` : '';
  return `${where || 'value'}${missing}: ${first.message ?? 'invalid'}`;
}
