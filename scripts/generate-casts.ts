/**
 * The `casts.gen.ts` of a contract that names casts (`x-php-cast`, see
 * `src/services/publishing/http/phpCast.ts`): for each operation with a JSON
 * request body, the body's type as the casting step hands it on, so a handler
 * takes the cast's output with no assertion. Each field the body lists (its
 * own properties and those of its `allOf` branches), less those its
 * `x-php-input` drops and those cast `drop`:
 *
 * - `int` a number, `bool` a boolean, `string` a string;
 * - `choice` one of its `x-php-choices` (or the operation's `x-php-input`
 *   choices), present whenever defaults apply (`x-php-input.defaults`);
 * - `files` the uploaded files of a multipart body;
 * - no cast: the field's generated type, without `null` (a `null` is not given).
 *
 * A field is optional unless defaults apply and it has one (a choice, or a
 * schema `default`).
 */

interface Reference {
  $ref?: string;
}

interface SchemaNode extends Reference {
  'x-php-cast'?: string;
  'x-php-choices'?: string[];
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

interface Parameter extends Reference {
  name?: string;
  in?: string;
  schema?: SchemaNode;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: Reference & {
    'x-php-input'?: { defaults?: boolean; drop?: string[]; choices?: Record<string, string[]> };
    content?: Record<string, { schema?: SchemaNode }>;
  };
}

type Document = { paths?: Record<string, Record<string, unknown>> };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A local `$ref` followed to what it names. */
function deref<T extends Reference>(document: Document, value: T | undefined): T | undefined {
  let target: unknown = value;
  for (let hops = 0; target && (target as Reference).$ref !== undefined; hops++) {
    const ref = (target as Reference).$ref!;
    if (!ref.startsWith('#/') || hops > 16) throw new Error(`cannot follow $ref ${ref}`);
    target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], document);
  }
  return target as T | undefined;
}

/** The cast a schema names: its own, else that of the first branch of its `allOf`/`anyOf`/`oneOf` that names one. */
function castOf(document: Document, schema: SchemaNode | undefined): SchemaNode | undefined {
  const node = deref(document, schema);
  if (!node) return undefined;
  if (node['x-php-cast']) return node;
  for (const branch of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const inner = castOf(document, branch);
    if (inner) return inner;
  }
  return undefined;
}

const literal = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
/** A property's name as TypeScript writes it: bare where it is an identifier, else quoted. */
const propertyName = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));

/** Whether the contract names any cast (only such a contract gets a `casts.gen.ts`). */
export const namesCasts = (text: string) => text.includes('x-php-cast');

/** The type a field's cast gives (`int` a number, `choice` one of its choices...), or undefined for no cast. */
function castType(kind: string | undefined, choices: readonly string[] | undefined): string | undefined {
  if (kind === 'int') return 'number';
  if (kind === 'bool') return 'boolean';
  if (kind === 'string') return 'string';
  if (kind === 'choice') return (choices ?? []).map(literal).join(' | ') || 'never';
  if (kind === 'files') return 'UploadedFile[]';
  return undefined;
}

/**
 * The query parameters of an operation that name a cast, as the casting step
 * hands them on: a query always gets defaults (PHP's `query_args()`), so a
 * choice is always there, and any other cast wherever its schema has a
 * `default`.
 */
function queryCasts(document: Document, operation: Operation): string[] {
  return (operation.parameters ?? []).flatMap((reference) => {
    const parameter = deref(document, reference);
    if (parameter?.in !== 'query' || !parameter.name) return [];
    const cast = castOf(document, parameter.schema);
    const kind = cast?.['x-php-cast'];
    const type = castType(kind, cast?.['x-php-choices']);
    if (!type) return [];
    const always = kind === 'choice' || cast?.default !== undefined;
    return [`    ${propertyName(parameter.name)}${always ? '' : '?'}: ${type};`];
  });
}

export function castTypes(name: string, document: Document): string {
  const bodies: string[] = [];
  const queries: string[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Operation | undefined;
      const query = operation?.operationId ? queryCasts(document, operation) : [];
      if (query.length) queries.push(`  ${operation!.operationId}: {\n${query.join('\n')}\n  };`);
      const requestBody = deref(document, operation?.requestBody);
      const schema = deref(document, requestBody?.content?.['application/json']?.schema);
      if (!operation?.operationId || !requestBody || !schema) continue;
      const input = requestBody['x-php-input'] ?? {};
      const properties: Record<string, SchemaNode> = Object.assign(
        {},
        ...(schema.allOf ?? []).map((branch) => deref(document, branch)?.properties ?? {}),
        schema.properties ?? {},
      );
      const data = `T.${operation.operationId[0]!.toUpperCase()}${operation.operationId.slice(1)}Data`;
      const fields = Object.entries(properties).flatMap(([field, property]) => {
        if (input.drop?.includes(field)) return [];
        const cast = castOf(document, property);
        const kind = cast?.['x-php-cast'];
        if (kind === 'drop') return [];
        const choices = input.choices?.[field] ?? cast?.['x-php-choices'];
        const type = castType(kind, choices) ?? `Exclude<NonNullable<${data}['body']>['${field}'], null | undefined>`;
        const always = input.defaults === true && (kind === 'choice' || cast?.default !== undefined);
        return [`    ${propertyName(field)}${always ? '' : '?'}: ${type};`];
      });
      bodies.push(`  ${operation.operationId}: {\n${fields.join('\n')}\n  };`);
    }
  }
  return [
    `// This file is generated from openapi/${name}.yaml by scripts/generate.ts (npm run generate); do not edit.`,
    '',
    "import type * as T from './types.gen.js';",
    '',
    "/** A file of a multipart body, as the platform's form reader hands it on. */",
    'export interface UploadedFile {',
    '  readonly field: string;',
    '  readonly filename: string;',
    '  readonly mimeType: string;',
    '  readonly size: number;',
    '  readonly truncated: boolean;',
    '  readonly bytes: Buffer;',
    '}',
    '',
    '/**',
    " * Each operation's JSON request body as the casting step hands it on",
    ' * (`x-php-cast`, `x-php-input`): one type per field, a field sent as `null`',
    ' * not given.',
    ' */',
    'export interface CastBodies {',
    ...bodies,
    '}',
    '',
    '/**',
    ' * The query parameters of each operation that name a cast, as the casting',
    ' * step hands them on (a query always gets defaults); the others pass',
    ' * through as the request gave them.',
    ' */',
    'export interface CastQueries {',
    ...queries,
    '}',
    '',
  ].join('\n');
}
