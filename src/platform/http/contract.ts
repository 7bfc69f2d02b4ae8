import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, extname } from 'node:path';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import addFormats from 'ajv-formats';
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type jsYamlModule from 'js-yaml';
import { sha256Hex } from '../security/secrets.js';

/** One operation of a contract, with everything the pipeline needs compiled once at start-up. */
export interface ContractOperation {
  operationId: string;
  method: string;
  /** Path template as written in the contract, e.g. `/profiles/{profileIdentifier}`. */
  path: string;
  /**
   * The path of the operation's own server (`servers` on its path item or on
   * itself, variables at their defaults), when it declares one: the
   * operation is then served under it instead of the service's prefix
   * (`''` for the avatar images at the site's root).
   */
  serverPath?: string;
  pathParams: { name: string; integer: boolean }[];
  queryParams: Map<string, { boolean: boolean; array: boolean }>;
  /** `required` when no security requirement is empty; `optional` when `{}` is allowed; `none` when `security: []`. */
  security: 'required' | 'optional' | 'none';
  /** The security schemes its requirements name (`components.securitySchemes` keys), in the order written. */
  securitySchemes: string[];
  /** Validators over `{path, query, header, requestBody}`: parameters, and the JSON body when the operation has one. */
  validateRequest: ValidateFunction[];
  /** The operation takes a JSON request body (`required` when it must be present). */
  body: 'none' | 'optional' | 'required';
  /** Validators by status code for `application/json` bodies (test and development use; compiled when first read). */
  readonly responseValidators: Record<string, ValidateFunction>;
  /** Status codes whose answer is bytes of another media type (`image/png`): their bodies are Buffers, not JSON. */
  binaryStatuses: ReadonlySet<string>;
}

/** A loaded, dereferenced and compiled OpenAPI 3.1 document. */
export interface Contract {
  /** The document as written (with `$ref`s), served to clients. */
  document: Record<string, unknown>;
  /** The same document with every `$ref` resolved (what the validators were compiled from). */
  dereferenced: Record<string, unknown>;
  operations: ContractOperation[];
  /** `components.securitySchemes`: where each scheme's credential is sent. */
  securitySchemes: Record<string, SecurityScheme>;
  byOperationId: Map<string, ContractOperation>;
  /**
   * Validates the headers of an answer (any letter case; a repeated header as
   * an array) against what the operation declares for that status: every
   * `required: true` header present, every declared header that is present
   * valid against its schema. Null when valid, else one line naming the header.
   */
  validateResponseHeaders(operationId: string, status: number, headers: ResponseHeaders): string | null;
}

/** A security scheme as the contract declares it (the parts that say where its credential is). */
export interface SecurityScheme {
  type: string;
  /** `http` schemes: `bearer`, `basic`, … */
  scheme?: string;
  /** `apiKey` schemes: where the key is sent, and under which name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

/** Response headers as Node holds them (`res.getHeaders()`) or as plain text. */
export type ResponseHeaders = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/**
 * An Ajv for the JSON Schema dialect of OpenAPI 3.1 (2020-12), with the
 * `format`s of ajv-formats (uri, date-time, email; int32, int64, ...).
 * Not strict: OpenAPI schemas carry keywords of their own (`example`,
 * `discriminator`, `xml`) that are no JSON Schema keywords. A caller may
 * ask for the meta-schema check (`validateSchema: true`).
 */
export function openApiAjv(options: AjvOptions = {}): Ajv2020 {
  // Schemas are not checked against the 2020-12 meta-schema as they compile: compiling that
  // meta-schema was a tenth of start-up. Every contract's schemas are checked against it in
  // a test instead (test/platform/http/contract.test.ts), and Redocly lints the contracts.
  const ajv = new Ajv2020({ validateSchema: false, ...options, strict: false });
  // ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
  (addFormats as unknown as { default: (a: Ajv2020) => Ajv2020 }).default(ajv);
  return ajv;
}

/**
 * A contract's YAML as data, read with the YAML 1.2 core schema (no dates
 * or other types beyond JSON's, as OpenAPI documents are JSON-compatible).
 * js-yaml reads the contracts several times faster than the `yaml`
 * package, which was a third of start-up's contract loading; a test checks
 * that both read every contract alike.
 */
export function parseContractYaml(text: string): Record<string, unknown> {
  // Loaded when a YAML is read: a compiled server reads the build's JSON instead.
  const jsYaml = createRequire(import.meta.url)('js-yaml') as typeof jsYamlModule;
  return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA }) as Record<string, unknown>;
}

/** Set by `npm run build:server` in the bundle it writes: the folder of the contracts' JSON, from the bundle. */
declare const BUNDLED_CONTRACTS_DIR: string | undefined;

/**
 * Where `npm run build:server` wrote each contract as JSON, beside the
 * bundled server (`dist/server/openapi/<name>.json`). Run from its
 * TypeScript source there is none, and the YAML is read.
 */
const COMPILED_CONTRACTS = typeof BUNDLED_CONTRACTS_DIR === 'string' ? new URL(BUNDLED_CONTRACTS_DIR, import.meta.url) : undefined;

/** A contract as the build writes it: the document, and the SHA-256 of the YAML it was read from. */
export interface CompiledContract {
  sha256: string;
  document: Record<string, unknown>;
}

/**
 * A contract's document: the build's JSON of it when that was made from
 * this very YAML (same SHA-256), else the YAML read now. Parsing JSON is
 * far cheaper than YAML at start-up; a YAML edited after the build is read
 * as it is now.
 */
function readContractDocument(file: string, compiledDir = COMPILED_CONTRACTS): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  if (!compiledDir) return parseContractYaml(text);
  try {
    const compiled = JSON.parse(readFileSync(new URL(`${basename(file, extname(file))}.json`, compiledDir), 'utf8')) as CompiledContract;
    if (compiled.sha256 === sha256Hex(text)) return compiled.document;
  } catch {
    // No build of it, or not readable: the YAML is the source.
  }
  return parseContractYaml(text);
}

/** The build's JSON of a contract (see `readContractDocument`). */
export function compileContract(text: string): CompiledContract {
  return { sha256: sha256Hex(text), document: parseContractYaml(text) };
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

/**
 * Loads an OpenAPI 3.1 document and compiles every operation's validators in
 * the document's dialect, JSON Schema 2020-12.
 *
 * openapi-backend compiles the request and response body validators: it
 * builds a draft-07 Ajv for each and hands it to `customizeAjv`, which
 * returns a 2020-12 one with the same options instead (draft-07 would
 * silently ignore `prefixItems`, `unevaluatedProperties`, `dependentRequired`).
 * Response bodies and headers are compiled here directly, with Ajv:
 * openapi-backend compiles each answer's schema from the dereferenced
 * document, a full copy of every schema it references per operation and
 * status (the post object dozens of times over: seconds of start-up), and
 * its header validators either require no header or every header with a
 * schema, never what each header's `required` says. Everything is compiled
 * once, here.
 */
export async function loadContract(file: string, options: { compiledDir?: URL } = {}): Promise<Contract> {
  const document = readContractDocument(file, options.compiledDir);
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as never,
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

  // Answer validators are compiled when first asked for: with response validation off (production)
  // they never are, and start-up compiles only what requests need.
  let responseBodies: ReturnType<typeof compileResponseBodies> | undefined;
  const bodiesOf = (path: string, method: string, responses: Record<string, unknown>) =>
    (responseBodies ??= compileResponseBodies(document))(path, method, responses);
  const globalSecurity = (document.security as unknown[] | undefined) ?? [];
  const pathItems = (document.paths ?? {}) as Record<string, { servers?: ServerObject[] }>;
  const operations = api.getOperations().map((op: Operation): ContractOperation => {
    const params = (op.parameters ?? []) as {
      name: string;
      in: string;
      schema?: ParameterSchema;
    }[];
    const security = (op.security ?? globalSecurity) as Record<string, unknown>[];
    const validateRequest = api.validator.getRequestValidatorsForOperation(op.operationId!) ?? [];
    if (!validateRequest.length) throw new Error(`no request validator for ${op.operationId}`);
    const requestBody = op.requestBody as { required?: boolean; content?: Record<string, unknown> } | undefined;
    if (requestBody && !requestBody.content?.['application/json']) {
      throw new Error(`${op.operationId}: only application/json request bodies are supported`);
    }
    const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
    const ownServer = ((op.servers as ServerObject[] | undefined) ?? pathItems[op.path]?.servers)?.[0];
    return {
      operationId: op.operationId!,
      method: op.method.toUpperCase(),
      path: op.path,
      ...(ownServer ? { serverPath: serverPath(ownServer) } : {}),
      pathParams: params
        .filter((p) => p.in === 'path')
        .map((p) => ({ name: p.name, integer: p.schema?.type === 'integer' })),
      queryParams: new Map(
        params
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, { boolean: acceptsBoolean(p.schema), array: p.schema?.type === 'array' }]),
      ),
      security:
        security.length === 0
          ? 'none'
          : security.some((s) => Object.keys(s).length === 0)
            ? 'optional'
            : 'required',
      securitySchemes: [...new Set(security.flatMap((s) => Object.keys(s)))],
      validateRequest,
      body: !requestBody ? 'none' : requestBody.required ? 'required' : 'optional',
      get responseValidators() {
        const validators = bodiesOf(op.path, op.method, responses);
        Object.defineProperty(this, 'responseValidators', { value: validators, enumerable: true });
        return validators;
      },
      binaryStatuses: new Set(
        Object.entries(responses)
          .filter(([, response]) => Object.keys(response.content ?? {}).some((type) => type !== 'application/json'))
          .map(([status]) => status),
      ),
    };
  });

  // Like answer bodies, answer headers are compiled when first checked.
  const responsesById = new Map(api.getOperations().map((op: Operation) => [op.operationId!, (op.responses ?? {}) as Record<string, unknown>]));
  const declaredHeaders = new Map<string, Map<string, DeclaredHeader[]>>();

  return {
    document,
    dereferenced: api.definition as unknown as Record<string, unknown>,
    operations,
    securitySchemes: ((document.components as { securitySchemes?: Record<string, SecurityScheme> } | undefined)?.securitySchemes ?? {}),
    byOperationId: new Map(operations.map((op) => [op.operationId, op])),
    validateResponseHeaders(operationId, status, headers) {
      let byStatus = declaredHeaders.get(operationId);
      if (!byStatus) {
        const responses = responsesById.get(operationId);
        if (!responses) throw new Error(`unknown operation ${operationId}`);
        declaredHeaders.set(operationId, (byStatus = compileResponseHeaders(sharedAjv({ coerceTypes: true }), responses)));
      }
      const code = String(status);
      const declared = byStatus.get(code) ?? byStatus.get(`${code[0]}XX`) ?? byStatus.get('default') ?? [];
      return checkHeaders(declared, headers);
    },
  };
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
function compileResponseBodies(
  document: Record<string, unknown>,
): (path: string, method: string, responses: Record<string, unknown>) => Record<string, ValidateFunction> {
  const ajv = sharedAjv({ inlineRefs: false });
  const id = `${CONTRACT_ID_BASE}${++contractsCompiled}`;
  ajv.addSchema({ ...structuredClone(document), $id: id }, undefined, undefined, false);
  const noContent = ajv.compile({ type: 'null' });
  const at = (pointer: string): unknown =>
    pointer
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token.replaceAll('~1', '/').replaceAll('~0', '~')], document);
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
        validators[status] = ajv.compile({ $ref: `${id}${pointer}/content/application~1json/schema` });
      } else if (!response?.content && status === '204') {
        validators[status] = noContent;
      }
    }
    return validators;
  };
}

interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** The path part of a server URL with its variables at their defaults, without a trailing slash (`''` for a bare origin). */
function serverPath(server: ServerObject): string {
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url).pathname.replace(/\/+$/, '');
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

/** The declared headers of each response of an operation (by status key: `200`, `4XX`, `default`). */
function compileResponseHeaders(ajv: Ajv2020, responses: Record<string, unknown>): Map<string, DeclaredHeader[]> {
  const byStatus = new Map<string, DeclaredHeader[]>();
  for (const [status, response] of Object.entries(responses)) {
    const headers = (response as { headers?: Record<string, HeaderObject> }).headers ?? {};
    byStatus.set(
      status.toUpperCase(),
      Object.entries(headers).map(([name, header]) => {
        const schema = header.schema ?? Object.values(header.content ?? {})[0]?.schema;
        // Header values are text: the value sits in a holder object so Ajv can coerce it to the schema's type.
        const validate = schema && ajv.compile({ type: 'object', properties: { value: schema } });
        return { name: name.toLowerCase(), required: header.required === true, validate };
      }),
    );
  }
  return byStatus;
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

interface ParameterSchema {
  type?: string | string[];
  anyOf?: ParameterSchema[];
  oneOf?: ParameterSchema[];
}

/** A boolean parameter, or one that also takes other spellings (`anyOf: [boolean, string]`): its text is read as a flag. */
const acceptsBoolean = (schema: ParameterSchema | undefined): boolean =>
  schema?.type === 'boolean' || [...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].some(acceptsBoolean);

/** One line naming the first failing location, e.g. `query.context: must be string`. */
export function describeErrors(errors: readonly ErrorObject[]): string {
  const [first] = errors;
  if (!first) return 'invalid';
  const where = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = first.keyword === 'required' ? ` (${(first.params as { missingProperty: string }).missingProperty})` : '';
  return `${where || 'value'}${missing}: ${first.message ?? 'invalid'}`;
}

const loaded = new Map<string, Promise<Contract>>();

/**
 * `loadContract`, once per file and process: a contract depends only on its
 * file, and compiling one takes most of a second, so every app built in the
 * same process (the test suites build hundreds) shares the compiled result.
 */
export function loadContractOnce(file: string): Promise<Contract> {
  let contract = loaded.get(file);
  if (!contract) {
    contract = loadContract(file);
    contract.catch(() => loaded.delete(file));
    loaded.set(file, contract);
  }
  return contract;
}
