/**
 * `npm run generate`: rebuilds `generated/<name>/` from every contract
 * `openapi/<name>.yaml`. `@hey-api/openapi-ts` writes the types and the SDK;
 * then this script writes `contract.gen.ts` beside them: the contract's
 * operations (operationId to its generated `XxxData` and `XxxResponses`
 * types, and the headers each status declares, required ones required)
 * and the names of its security schemes, which a service module's handler
 * map, policy table and security resolvers are typed from; and, for a
 * contract that names casts (`x-php-cast`), `casts.gen.ts`: each request
 * body as the casting step hands it on (`generate-casts.ts`).
 * `GENERATE_OUTPUT_ROOT` writes elsewhere (`npm run check:generated`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from './contracts.js';
import { castTypes, namesCasts } from './generate-casts.js';
import { CONTRACTS, projectRoot, quietToolEnv, run } from './tools.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Server {
  url: string;
  variables?: Record<string, { default?: string }>;
}

interface Operation {
  operationId?: string;
  servers?: Server[];
  responses?: Record<string, Reference & { headers?: Record<string, Reference & { required?: boolean }> }>;
}

interface Reference {
  $ref?: string;
}

interface Document {
  servers?: Server[];
  paths?: Record<string, Record<string, Operation | undefined> & { servers?: Server[] }>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/** A local `$ref` (`#/components/...`) followed to what it names, as often as it takes. */
function resolved<T extends Reference>(name: string, document: Document, value: T): T {
  let target: unknown = value;
  for (let hops = 0; (target as Reference).$ref !== undefined; hops++) {
    const ref = (target as Reference).$ref!;
    if (!ref.startsWith('#/') || hops > 16) throw new Error(`${name}: cannot follow $ref ${ref}`);
    target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, key) => (at as Record<string, unknown> | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')],
        document,
      );
    if (target === undefined) throw new Error(`${name}: $ref ${ref} names nothing`);
  }
  return target as T;
}

/**
 * The headers an operation's answers carry, by status, as a type: each
 * declared header a string (as written to the response), optional unless
 * the contract says `required: true`. Statuses without headers are left out.
 */
function headerTypes(name: string, document: Document, operation: Operation): string {
  const statuses = Object.entries(operation.responses ?? {}).flatMap(([status, response]) => {
    const headers = Object.entries(resolved(name, document, response).headers ?? {});
    if (!/^\d{3}$/.test(status) || !headers.length) return [];
    const fields = headers.map(
      ([header, spec]) => `'${header}'${resolved(name, document, spec).required ? '' : '?'}: string`,
    );
    return [`      ${status}: { ${fields.join('; ')} };`];
  });
  return statuses.length ? `{\n${statuses.join('\n')}\n    }` : '{}';
}

/** The path part of a server's URL with each variable at its default (`{base_url}` = `http://localhost:8080/v3` gives `/v3`). */
function serverPath(name: string, server: Server): string {
  const url = server.url.replace(/\{([^}]+)\}/g, (_, variable: string) => server.variables?.[variable]?.default ?? '');
  if (!URL.canParse(url))
    throw new Error(`${name}: server ${server.url} is no URL with its variables at their defaults`);
  return new URL(url).pathname.replace(/\/+$/, '');
}

/** The `contract.gen.ts` of one contract; `types` is the `types.gen.ts` openapi-ts wrote for it. */
function contractTypes(name: string, document: Document, types: string): string {
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation?.operationId ? [{ id: operation.operationId, operation }] : [];
    }),
  );
  // An operation that answers only redirects and errors (the OAuth authorization endpoint) has no success type: openapi-ts writes none.
  const answersOnlyRedirects = (operation: Operation) =>
    !Object.keys(operation.responses ?? {}).some((status) => /^2/.test(status));
  // openapi-ts names an operation's types after its operationId in PascalCase; say so plainly if it ever does not.
  const typeName = (operationId: string, suffix: 'Data' | 'Responses') => {
    const type = `${operationId[0]!.toUpperCase()}${operationId.slice(1)}${suffix}`;
    if (!types.includes(`export type ${type} = `))
      throw new Error(`${name}: openapi-ts wrote no type ${type} for operation ${operationId}`);
    return type;
  };
  const schemes = Object.keys(document.components?.securitySchemes ?? {});
  const mainServer = document.servers?.[0];
  if (!mainServer) throw new Error(`${name}: the contract declares no server`);
  // An operation served from a server of its own answers under that server's path and its path's first segment.
  const ownServerPrefixes = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      const server = operation?.servers?.[0] ?? item.servers?.[0];
      if (!operation?.operationId || !server) return [];
      return [`  ${operation.operationId}: '${serverPath(name, server)}/${path.split('/')[1]}',`];
    }),
  );
  return [
    `// This file is generated from openapi/${name}.yaml by scripts/generate.ts (npm run generate); do not edit.`,
    '',
    "import type * as T from './types.gen.js';",
    '',
    '/**',
    ' * The operations of the contract by operationId: their generated request and',
    ' * response types, and the headers each status declares (required ones required).',
    ' */',
    'export interface Operations {',
    ...operations.map(
      ({ id, operation }) =>
        `  ${id}: {\n    data: T.${typeName(id, 'Data')};\n    responses: ${answersOnlyRedirects(operation) ? 'Record<never, never>' : `T.${typeName(id, 'Responses')}`};\n    headers: ${headerTypes(name, document, operation)};\n  };`,
    ),
    '}',
    '',
    "/** The names of the contract's security schemes (`components.securitySchemes`). */",
    `export type SecuritySchemeName = ${schemes.map((scheme) => `'${scheme}'`).join(' | ') || 'never'};`,
    '',
    "/** The path prefix the service answers under: its server's path, with each variable at its default. */",
    `export const PREFIX = '${serverPath(name, mainServer)}';`,
    '',
    "/** The prefixes of the operations served from a server of their own (their server's path and their path's first segment). */",
    `export const OWN_SERVER_PREFIXES = {${ownServerPrefixes.length ? `\n${ownServerPrefixes.join('\n')}\n` : ''}} as const;`,
    '',
  ].join('\n');
}

const outputRoot = process.env.GENERATE_OUTPUT_ROOT ?? join(projectRoot, 'generated');
const code = await run('openapi-ts', [], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...quietToolEnv, GENERATE_OUTPUT_ROOT: outputRoot },
});
if (code !== 0) process.exit(code);
for (const name of CONTRACTS) {
  const text = readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8');
  const document = parseYaml(text) as Document;
  const folder = join(outputRoot, name);
  writeFileSync(
    join(folder, 'contract.gen.ts'),
    contractTypes(name, document, readFileSync(join(folder, 'types.gen.ts'), 'utf8')),
  );
  if (namesCasts(text)) writeFileSync(join(folder, 'casts.gen.ts'), castTypes(name, document));
}
console.log(
  `generated ${CONTRACTS.length} folders (${CONTRACTS.join(', ')}): types, SDK, contract.gen.ts, casts.gen.ts where casts are named`,
);
