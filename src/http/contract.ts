import { readFileSync } from 'node:fs';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import addFormats from 'ajv-formats';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';

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
  /** Validators over `{path, query, header, requestBody}`: parameters, and the JSON body when the operation has one. */
  validateRequest: ValidateFunction[];
  /** The operation takes a JSON request body (`required` when it must be present). */
  body: 'none' | 'optional' | 'required';
  /** Validators by status code for `application/json` bodies (test and development use). */
  responseValidators: Record<string, ValidateFunction>;
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
  byOperationId: Map<string, ContractOperation>;
  /** Validates a response's headers (lower-case names) for an operation and status; null when valid. */
  validateResponseHeaders(operationId: string, status: number, headers: Record<string, string>): string | null;
}

function customizeAjv(ajv: Ajv): Ajv {
  // ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
  (addFormats as unknown as { default: (a: Ajv) => Ajv }).default(ajv);
  return ajv;
}

/**
 * Loads an OpenAPI 3.1 document and compiles every operation's validators.
 *
 * openapi-backend runs in strict mode with ajv-formats on; its validators are
 * compiled here, once, for every operation (quick mode would compile lazily).
 */
export async function loadContract(file: string): Promise<Contract> {
  const document = parseYaml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const api = new OpenAPIBackend({
    definition: structuredClone(document) as never,
    // openapi-backend checks documents against the OpenAPI 3.0 schema only, so a
    // 3.1 document fails that check: `quick` skips it (Redocly lints the 3.1
    // document in CI) and `strict` still fails hard on anything else.
    strict: true,
    validate: true,
    quick: true,
    customizeAjv: customizeAjv as never,
  });
  await api.init();

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
      validateRequest,
      body: !requestBody ? 'none' : requestBody.required ? 'required' : 'optional',
      responseValidators: (api.validator.getStatusBasedResponseValidatorForOperation(op.operationId!) ??
        {}) as Record<string, ValidateFunction>,
      binaryStatuses: new Set(
        Object.entries(responses)
          .filter(([, response]) => Object.keys(response.content ?? {}).some((type) => type !== 'application/json'))
          .map(([status]) => status),
      ),
    };
  });

  return {
    document,
    dereferenced: api.definition as unknown as Record<string, unknown>,
    operations,
    byOperationId: new Map(operations.map((op) => [op.operationId, op])),
    validateResponseHeaders(operationId, status, headers) {
      const result = api.validator.validateResponseHeaders(headers, operationId, { statusCode: status });
      return result.errors?.length ? describeErrors(result.errors as ErrorObject[]) : null;
    },
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
