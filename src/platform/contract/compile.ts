import type { Operation } from 'openapi-backend';
import { readContractDocument } from './document.js';
import type { Contract, ContractOperation, SecurityScheme } from './types.js';
import { lazyResponseBodies, lazyResponseHeaders, openApiBackend } from './validators.js';

/**
 * Loads an OpenAPI 3.1 document; each operation's request validators compile in its dialect, JSON Schema 2020-12,
 * when first read (its first request: an operation no request calls never compiles them; see
 * docs/decisions/validators-on-first-use.md), and answer validators once, on first use (`validators.ts`).
 */
export async function loadContract(file: string, options: { compiledDir?: URL } = {}): Promise<Contract> {
  const document = readContractDocument(file, options.compiledDir);
  const api = await openApiBackend(document);
  const bodiesOf = lazyResponseBodies(document);
  const globalSecurity = (document.security as unknown[] | undefined) ?? [];
  const pathItems = (document.paths ?? {}) as Record<string, { servers?: ServerObject[] }>;
  const operations = api.getOperations().map((op: Operation): ContractOperation => {
    const params = (op.parameters ?? []) as {
      name: string;
      in: string;
      schema?: ParameterSchema;
      style?: string;
    }[];
    const security = (op.security ?? globalSecurity) as Record<string, unknown>[];
    const requestBody = op.requestBody as { required?: boolean; content?: Record<string, unknown> } | undefined;
    if (requestBody && !requestBody.content?.['application/json']) {
      throw new Error(
        `${op.operationId}: a request body must be declared as application/json (forms are read into the same schema)`,
      );
    }
    const otherTypes = Object.keys(requestBody?.content ?? {}).filter((type) => type !== 'application/json');
    const unsupported = otherTypes.filter((type) => !FORM_TYPES.has(type));
    if (unsupported.length)
      throw new Error(`${op.operationId}: request bodies of ${unsupported.join(', ')} are not supported`);
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
          .map((p) => [
            p.name,
            { boolean: acceptsBoolean(p.schema), array: p.schema?.type === 'array', object: p.style === 'deepObject' },
          ]),
      ),
      security:
        security.length === 0 ? 'none' : security.some((s) => Object.keys(s).length === 0) ? 'optional' : 'required',
      securitySchemes: [...new Set(security.flatMap((s) => Object.keys(s)))],
      get validateRequest() {
        const validators = api.validator.getRequestValidatorsForOperation(op.operationId!) ?? [];
        if (!validators.length) throw new Error(`no request validator for ${op.operationId}`);
        Object.defineProperty(this, 'validateRequest', { value: validators, enumerable: true });
        return validators;
      },
      body: !requestBody ? 'none' : requestBody.required ? 'required' : 'optional',
      formBodies: new Set(otherTypes as FormType[]),
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

  return {
    document,
    dereferenced: api.definition as unknown as Record<string, unknown>,
    operations,
    securitySchemes:
      (document.components as { securitySchemes?: Record<string, SecurityScheme> } | undefined)?.securitySchemes ?? {},
    byOperationId: new Map(operations.map((op) => [op.operationId, op])),
    validateResponseHeaders: lazyResponseHeaders(api.getOperations()),
  };
}

/** The body media types besides JSON the pipeline reads (`formBodies.ts`). */
type FormType = 'application/x-www-form-urlencoded' | 'multipart/form-data';
const FORM_TYPES: ReadonlySet<string> = new Set<FormType>(['application/x-www-form-urlencoded', 'multipart/form-data']);

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
