/**
 * Code samples for the docs, written into each operation of a bundled
 * contract as `x-codeSamples` (the extension Scalar, Redoc and others show).
 * curl and the other HTTP clients come from the renderer's own generator,
 * which follows the server and credentials the reader picks; what it cannot
 * know is the project's SDK, so this writes that one: the function named by
 * the operationId from `@contract-first/<service>`, called with the
 * contract's own example values.
 */
import type { OpenApiDocument } from '../contracts.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
  schema?: Schema;
}
interface Schema {
  $ref?: string;
  type?: string | string[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
}
interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}
interface Operation {
  operationId?: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content?: Record<string, MediaType>; $ref?: string };
  security?: Record<string, string[]>[];
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  'x-codeSamples'?: { lang: string; label: string; source: string }[];
}
interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
}

/** The object a local `$ref` (`#/components/...`) points at, followed until it is not a `$ref`. */
function resolve<T>(document: OpenApiDocument, value: T | { $ref: string } | undefined): T | undefined {
  let current: unknown = value;
  for (let hops = 0; hops < 20 && current && typeof current === 'object' && '$ref' in current; hops++) {
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  }
  return current as T | undefined;
}

/** The contract's example for a parameter (its own, its first named one, its schema's), else a placeholder of its type. */
function parameterExample(document: OpenApiDocument, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  const value = resolve<{ value?: unknown }>(document, named)?.value;
  if (value !== undefined) return value;
  const schema = resolve<Schema>(document, parameter.schema);
  const fromSchema = schema?.example ?? schema?.examples?.[0] ?? schema?.default ?? schema?.enum?.[0];
  if (fromSchema !== undefined) return fromSchema;
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  return type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : parameter.name;
}

/** The first example of a JSON request body, from the media type or its schema. */
function bodyExample(document: OpenApiDocument, media: MediaType): unknown {
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {})[0];
  const value = resolve<{ value?: unknown }>(document, named)?.value;
  if (value !== undefined) return value;
  const schema = resolve<Schema>(document, media.schema);
  return schema?.example ?? schema?.examples?.[0] ?? {};
}

/** A value as a TypeScript literal: JSON, with single-quoted strings and bare keys where they are identifiers. */
function literal(value: unknown, indent: string): string {
  if (typeof value === 'string')
    return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
  if (Array.isArray(value)) return value.length ? `[${value.map((item) => literal(item, indent)).join(', ')}]` : '[]';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(
      ([key, item]) =>
        `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key, inner)}: ${literal(item, inner)},`,
    );
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** An object of parameters (`{ name: value }`) as a one-line literal when short, else spread over lines. */
function parameterObject(values: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(values).map(
    ([key, value]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key, '')}: ${literal(value, indent)}`,
  );
  const oneLine = `{ ${entries.join(', ')} }`;
  return oneLine.length <= 60 && !oneLine.includes('\n') ? oneLine : literal(values, indent);
}

/** The document's server URL with its variables at their defaults: the SDK client's base URL (it finds an operation's own server from it). */
function documentServerUrl(document: OpenApiDocument): string | undefined {
  const server = (document.servers as Operation['servers'])?.[0];
  return server?.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
}

/**
 * The SDK call for one operation, as the package `@contract-first/<service>`
 * (scripts/build-sdk.ts) is used: a client at the contract's server (the
 * docs serve it at the deployment's address, see `documentAt` in
 * src/platform/docs/docsRoutes.ts) with `auth` when the operation takes a bearer
 * credential (a comment says when it is optional); then the operation with
 * its path, required query and header parameters and JSON body, valued
 * with the contract's examples; the install command first.
 */
export function sdkSample(
  service: string,
  document: OpenApiDocument,
  path: string,
  method: string,
): string | undefined {
  const pathItem = document.paths?.[path] as
    | ({ parameters?: Operation['parameters'] } & Record<string, unknown>)
    | undefined;
  const operation = pathItem?.[method] as Operation | undefined;
  if (!pathItem || !operation?.operationId) return undefined;
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]
    .map((parameter) => resolve<Parameter>(document, parameter))
    .filter((parameter): parameter is Parameter => Boolean(parameter));
  // An operation's parameter replaces the path item's of the same name and place.
  const byKey = new Map(parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter]));
  const groups: Record<'path' | 'query' | 'headers', Record<string, unknown>> = { path: {}, query: {}, headers: {} };
  for (const parameter of byKey.values()) {
    if (parameter.in === 'path') groups.path[parameter.name] = parameterExample(document, parameter);
    else if (parameter.in === 'query' && parameter.required)
      groups.query[parameter.name] = parameterExample(document, parameter);
    else if (parameter.in === 'header' && parameter.required)
      groups.headers[parameter.name] = parameterExample(document, parameter);
  }

  const client: string[] = [];
  const base = documentServerUrl(document);
  if (base) client.push(`baseUrl: '${base}'`);
  const security = operation.security ?? (document.security as Operation['security']) ?? [];
  const schemes =
    (document.components as { securitySchemes?: Record<string, SecurityScheme> } | undefined)?.securitySchemes ?? {};
  const bearer = security
    .flatMap((requirement) => Object.keys(requirement))
    .find((name) => schemes[name]?.type === 'http' && schemes[name]?.scheme === 'bearer');
  const optional = security.some((requirement) => Object.keys(requirement).length === 0);
  if (bearer) client.push(`auth: 'YOUR_${bearer.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}'`);

  const call = ['  client,'];
  if (Object.keys(groups.path).length) call.push(`  path: ${parameterObject(groups.path, '  ')},`);
  if (Object.keys(groups.query).length) call.push(`  query: ${parameterObject(groups.query, '  ')},`);
  if (Object.keys(groups.headers).length) call.push(`  headers: ${parameterObject(groups.headers, '  ')},`);
  const requestBody = resolve<NonNullable<Operation['requestBody']>>(document, operation.requestBody);
  const json = requestBody?.content?.['application/json'];
  if (json) call.push(`  body: ${literal(bodyExample(document, json), '  ')},`);

  const version = (document.info as { version?: string } | undefined)?.version;
  return [
    installLine(service, version),
    `import { createClient, ${operation.operationId} } from '@contract-first/${service}';`,
    '',
    `const client = createClient({ ${client.join(', ')} });${bearer && optional ? ' // auth: optional' : ''}`,
    `const { data, error } = await ${operation.operationId}(${call.length > 1 ? `{\n${call.join('\n')}\n}` : '{ client }'});`,
  ].join('\n');
}

/**
 * The sample's first line: how to get the package, from a registry or as the
 * tarball `npm run build:sdk` packs (`dist/sdk/`, named as `npm pack` names it).
 */
export function installLine(service: string, version: string | undefined): string {
  const at = version ? `@${version}` : '';
  return `// npm install @contract-first/${service}${at}  (or the tarball npm run build:sdk packs: ./contract-first-${service}${version ? `-${version}` : ''}.tgz)`;
}

/** The document with an SDK sample in `x-codeSamples` of every operation that has an operationId (kept: samples already written). */
export function withCodeSamples(service: string, document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => {
          if (!(METHODS as readonly string[]).includes(key)) return [key, value];
          const source = sdkSample(service, document, path, key);
          if (!source) return [key, value];
          const operation = value as Operation;
          return [
            key,
            {
              ...operation,
              'x-codeSamples': [
                ...(operation['x-codeSamples'] ?? []),
                { lang: 'typescript', label: 'TypeScript SDK', source },
              ],
            },
          ];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}
