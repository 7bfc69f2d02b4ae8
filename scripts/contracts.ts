/**
 * The contracts as the tools that serve or call them at one origin need
 * them. A contract's paths are relative to its server (`/profiles/{id}`
 * under `{base_url}` = `…/v3`; `/avatar/{hash}` under its own `{origin}`);
 * a mock or a client that talks to a whole deployment needs production's
 * full paths (`/v3/profiles/{id}`, `/avatar/{hash}`) under one origin.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { projectRoot } from './tools.js';

/** YAML 1.2's core schema, as the server reads contracts: JSON's types only (a date stays text). */
export const parseYaml = (text: string): unknown => load(text, { schema: CORE_SCHEMA });

/** An OpenAPI document, as plain data. */
export type OpenApiDocument = Record<string, unknown> & { paths?: Record<string, Record<string, unknown>> };

interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default?: string; description?: string }>;
}

/** The HTTP methods of a path item (its other keys are `parameters`, `servers`, `summary`, ...). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** `openapi/<name>.yaml`, parsed. */
export function readContract(name: string): OpenApiDocument {
  return parseYaml(readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8')) as OpenApiDocument;
}

/** A server's URL with every variable at its default. */
export function serverUrl(server: ServerObject): URL {
  return new URL(server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? ''));
}

/** The path part of a server's URL, without a trailing slash (`/v3`, `/rest/v1.1`, or `''`). */
export function serverPath(server: ServerObject): string {
  return serverUrl(server).pathname.replace(/\/+$/, '');
}

/**
 * The contract served at one origin: every path carries the path of the
 * server it is under (its own `servers`, else the document's), and the one
 * server left is `{origin}` (default: the origin of the document's first
 * server). Nothing else changes, so validation, examples and `$ref`s are as
 * written.
 */
export function atOrigin(document: OpenApiDocument): OpenApiDocument {
  const documentServer = (document.servers as ServerObject[] | undefined)?.[0];
  if (!documentServer)
    throw new Error(`${String((document.info as { title?: string })?.title)}: the contract names no server`);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const { servers: pathServers, ...rest } = item as { servers?: ServerObject[] } & Record<string, unknown>;
    const operationServers = METHODS.map(
      (method) => (rest[method] as { servers?: ServerObject[] } | undefined)?.servers,
    ).find(Boolean);
    const server = operationServers?.[0] ?? pathServers?.[0] ?? documentServer;
    const operations = Object.fromEntries(
      Object.entries(rest).map(([key, value]) => {
        if (!(METHODS as readonly string[]).includes(key)) return [key, value];
        const { servers: _servers, ...operation } = value as Record<string, unknown>;
        return [key, operation];
      }),
    );
    const fullPath = `${serverPath(server)}${path}`;
    if (paths[fullPath]) throw new Error(`two paths of the contract become ${fullPath}`);
    paths[fullPath] = operations;
  }
  return {
    ...document,
    servers: [
      {
        url: '{origin}',
        description: 'The deployment: scheme, host and port.',
        variables: {
          origin: {
            default: serverUrl(documentServer).origin,
            description: 'Scheme, host and port of the deployment.',
          },
        },
      },
    ],
    paths,
  };
}

/** A JSON pointer's segment, escaped. */
const pointerSegment = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every contract in one document at one origin (`atOrigin` each), for a
 * tool that takes one document, such as Prism: each contract's components
 * are renamed `<service>_<Name>` (their `$ref`s and security requirements
 * with them), so that two contracts' `Error` stay apart; paths, tags and
 * security schemes are gathered; `info` is the first's, retitled.
 */
export function mergedAtOrigin(names: readonly string[]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, unknown>();
  let servers: unknown;
  for (const name of names) {
    const document = atOrigin(readContract(name));
    servers ??= document.servers;
    const renamed = new Map<string, string>();
    for (const [kind, entries] of Object.entries(
      (document.components ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      for (const entry of Object.keys(entries)) {
        renamed.set(
          `#/components/${kind}/${pointerSegment(entry)}`,
          `#/components/${kind}/${pointerSegment(`${name}_${entry}`)}`,
        );
      }
    }
    const schemes = Object.keys(
      ((document.components as { securitySchemes?: object } | undefined)?.securitySchemes ?? {}) as object,
    );
    const rename = (value: unknown, key?: string): unknown => {
      if (Array.isArray(value)) {
        // Security requirements: objects whose keys are scheme names.
        if (key === 'security') {
          return value.map((requirement: Record<string, unknown>) =>
            Object.fromEntries(
              Object.entries(requirement).map(([scheme, scopes]) => [
                schemes.includes(scheme) ? `${name}_${scheme}` : scheme,
                scopes,
              ]),
            ),
          );
        }
        return value.map((item) => rename(item));
      }
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value).map(([entryKey, entry]) =>
            entryKey === '$ref' && typeof entry === 'string' && entry.startsWith('#/components/')
              ? [entryKey, renamed.get(entry) ?? renameNested(entry, renamed)]
              : [entryKey, rename(entry, entryKey)],
          ),
        );
      }
      return value;
    };
    // The document's own `security` applies to its operations that name none: written into each, since the merged document has none.
    const documentSecurity = document.security;
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (paths[path]) throw new Error(`${name}: ${path} is also another contract's`);
      const withSecurity = Object.fromEntries(
        Object.entries(item).map(([key, value]) =>
          (METHODS as readonly string[]).includes(key) &&
          documentSecurity &&
          !(value as { security?: unknown }).security
            ? [key, { ...(value as object), security: documentSecurity }]
            : [key, value],
        ),
      );
      paths[path] = rename(withSecurity) as Record<string, unknown>;
    }
    for (const [kind, entries] of Object.entries(
      (document.components ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      components[kind] ??= {};
      for (const [entry, value] of Object.entries(entries)) components[kind]![`${name}_${entry}`] = rename(value);
    }
    for (const tag of (document.tags ?? []) as { name: string }[]) if (!tags.has(tag.name)) tags.set(tag.name, tag);
  }
  const first = readContract(names[0]!);
  return {
    openapi: first.openapi,
    info: { ...(first.info as object), title: `Every contract: ${names.join(', ')}` },
    servers,
    tags: [...tags.values()],
    paths,
    components,
  };
}

/** A `$ref` into a component's inside (`#/components/schemas/Post/properties/ID`), renamed at its component. */
function renameNested(ref: string, renamed: ReadonlyMap<string, string>): string {
  const [, kind, entry, ...rest] = ref.slice(2).split('/');
  const target = renamed.get(`#/components/${kind}/${entry}`);
  return target ? [target, ...rest].join('/') : ref;
}
