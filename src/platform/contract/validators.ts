import { OpenAPIBackend, type Operation } from 'openapi-backend';
import type { Options as AjvOptions, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { sharedAjv } from './ajv.js';
import type { Contract, ResponseHeaders } from './types.js';

/**
 * openapi-backend over a document, its request validators in JSON Schema 2020-12: `customizeAjv` swaps
 * each draft-07 Ajv it builds, which would silently ignore `prefixItems`, `unevaluatedProperties`, `dependentRequired`.
 */
export async function openApiBackend(document: Record<string, unknown>): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    // The document itself, not a copy: in quick mode openapi-backend reads it only to dereference a copy of its own
    // (dereference-json-schema clones it first), which its router and validators use; nothing writes to it.
    definition: document as never,
    // openapi-backend checks documents against the OpenAPI 3.0 schema only, so a
    // 3.1 document fails that check: `quick` skips it (Redocly lints the 3.1
    // document in CI) and `strict` still fails hard on anything else.
    strict: true,
    validate: true,
    quick: true,
    // openapi-backend types the hook with the draft-07 class; both share Ajv's core API. It asks for
    // an Ajv per operation and validation step; one per set of options serves them all (`sharedAjv`).
    customizeAjv: ((_draft07: unknown, options: AjvOptions) => sharedAjv(options)) as never,
  });
  await api.init();
  return api;
}

/** Answer body validators of one operation by status code (see `compileResponseBodies`). */
export type ResponseBodies = (
  path: string,
  method: string,
  responses: Record<string, unknown>,
) => Record<string, ValidateFunction>;

/**
 * Answer body validators compiled on the first answer checked (never with response validation off), here rather than by
 * openapi-backend, which compiles each from a dereferenced copy of every schema it references, per operation and status.
 */
export function lazyResponseBodies(document: Record<string, unknown>): ResponseBodies {
  let responseBodies: ResponseBodies | undefined;
  return (path, method, responses) => (responseBodies ??= compileResponseBodies(document))(path, method, responses);
}

/** Where each contract is registered in the Ajv that compiles answer bodies (numbered: one Ajv serves them all). */
const CONTRACT_ID_BASE = 'https://contract.invalid/openapi-';
let contractsCompiled = 0;

/** A JSON Pointer token (`/` and `~` escaped). */
const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Compiles answer body validators from the document as written, with its
 * `$ref`s: the document is registered in one Ajv as a schema resource and
 * every validator is a reference into it, so a schema that many answers
 * share (`#/components/schemas/…`) is compiled once, as one function they
 * all call. Returns the validators of one operation by status code (as
 * openapi-backend would: `application/json` bodies, and `204` without
 * content as `null`).
 */
function compileResponseBodies(document: Record<string, unknown>): ResponseBodies {
  const ajv = sharedAjv({ inlineRefs: false });
  const id = `${CONTRACT_ID_BASE}${++contractsCompiled}`;
  ajv.addSchema({ ...structuredClone(document), $id: id }, undefined, undefined, false);
  const noContent = ajv.compile({ type: 'null' });
  // By the schema's place: most operations answer the same shared responses (`#/components/responses/…`), compiled once.
  const byPlace = new Map<string, ValidateFunction>();
  const at = (pointer: string): unknown =>
    pointer
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (node, token) =>
          (node as Record<string, unknown> | undefined)?.[token.replaceAll('~1', '/').replaceAll('~0', '~')],
        document,
      );
  return (path, method, responses) => {
    const validators: Record<string, ValidateFunction> = {};
    for (const status of Object.keys(responses)) {
      // The response as written (perhaps a `$ref` to `#/components/responses/…`), followed to its object.
      let pointer = `#/paths/${pointerToken(path)}/${method}/responses/${pointerToken(status)}`;
      let response = at(pointer) as { $ref?: string; content?: Record<string, { schema?: unknown }> } | undefined;
      for (let hops = 0; response?.$ref && hops < 10; hops++) {
        pointer = response.$ref;
        response = at(pointer) as typeof response;
      }
      if (response?.content?.['application/json']?.schema !== undefined) {
        const place = `${id}${pointer}/content/application~1json/schema`;
        validators[status] = compiledOnce(byPlace, place, () => ajv.compile({ $ref: place }));
      } else if (!response?.content && status === '204') {
        validators[status] = noContent;
      }
    }
    return validators;
  };
}

/**
 * Answer header checks, each operation's compiled when first used: openapi-backend's own require
 * no header or every header with a schema, never what each header's `required` says.
 */
export function lazyResponseHeaders(operations: readonly Operation[]): Contract['validateResponseHeaders'] {
  const responsesById = new Map(
    operations.map((op) => [op.operationId!, (op.responses ?? {}) as Record<string, unknown>]),
  );
  const declaredHeaders = new Map<string, Map<string, DeclaredHeader[]>>();
  const valueChecks = new Map<string, ValidateFunction>();
  return (operationId, status, headers) => {
    let byStatus = declaredHeaders.get(operationId);
    if (!byStatus) {
      const responses = responsesById.get(operationId);
      if (!responses) throw new Error(`unknown operation ${operationId}`);
      declaredHeaders.set(
        operationId,
        (byStatus = compileResponseHeaders(sharedAjv({ coerceTypes: true }), responses, valueChecks)),
      );
    }
    const code = String(status);
    const declared = byStatus.get(code) ?? byStatus.get(`${code[0]}XX`) ?? byStatus.get('default') ?? [];
    return checkHeaders(declared, headers);
  };
}

/** A header an answer declares: its lower-case name, whether it must be present, and its value's validator. */
interface DeclaredHeader {
  name: string;
  required: boolean;
  validate: ValidateFunction | undefined;
}

interface HeaderObject {
  required?: boolean;
  schema?: object;
  content?: Record<string, { schema?: object }>;
}

/**
 * The declared headers of each response of an operation (by status key: `200`, `4XX`, `default`). A value's
 * check is compiled once per schema (`valueChecks`, by its JSON): most answers of most operations declare the
 * same few headers (the rate limit's, `X-Request-Id`).
 */
function compileResponseHeaders(
  ajv: Ajv2020,
  responses: Record<string, unknown>,
  valueChecks: Map<string, ValidateFunction>,
): Map<string, DeclaredHeader[]> {
  const byStatus = new Map<string, DeclaredHeader[]>();
  for (const [status, response] of Object.entries(responses)) {
    const headers = (response as { headers?: Record<string, HeaderObject> }).headers ?? {};
    byStatus.set(
      status.toUpperCase(),
      Object.entries(headers).map(([name, header]) => {
        const schema = header.schema ?? Object.values(header.content ?? {})[0]?.schema;
        // Header values are text: the value sits in a holder object so Ajv can coerce it to the schema's type.
        const holder = schema && { type: 'object', properties: { value: schema } };
        const validate = holder && compiledOnce(valueChecks, JSON.stringify(holder), () => ajv.compile(holder));
        return { name: name.toLowerCase(), required: header.required === true, validate };
      }),
    );
  }
  return byStatus;
}

/** The validator kept under `key`, compiled by `compile` the first time `key` is asked for. */
function compiledOnce(kept: Map<string, ValidateFunction>, key: string, compile: () => ValidateFunction) {
  let validate = kept.get(key);
  if (!validate) kept.set(key, (validate = compile()));
  return validate;
}

/** The first declared header that is missing although required, or present with a value its schema refuses. */
function checkHeaders(declared: readonly DeclaredHeader[], headers: ResponseHeaders): string | null {
  if (!declared.length) return null;
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const { name, required, validate } of declared) {
    const value = byName.get(name);
    if (value === undefined) {
      if (required) return `header ${name}: is required but missing`;
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      if (validate && !validate({ value: String(one) })) {
        return `header ${name}: ${String(one).slice(0, 100)} ${validate.errors?.[0]?.message ?? 'is invalid'}`;
      }
    }
  }
  return null;
}
