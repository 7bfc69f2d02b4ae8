import type { CastBodies, CastQueries } from '../../../../generated/publishing/casts.gen.js';
import type { Contract } from '../../../platform/contract/types.js';
import { UploadedFile } from '../../../platform/pipeline/formBodies.js';
import { phpInt } from './phpInt.js';
import { phpTruthy } from '../domain/phpTruthy.js';

export { phpInt };

/**
 * The casting step of the platform's endpoint layer (`cast_and_filter` of
 * Jetpack's `class.json-api-endpoints.php`), driven by the contract: after
 * the contract has validated an input in every spelling the real endpoint
 * takes, each field is cast as that endpoint casts it, so the flows see one
 * type per field. The contract names the cast of a field with `x-php-cast`:
 *
 * - `int`: PHP's `(int)`: a number truncated, `true` 1, `false` 0, a string
 *   its leading integer (`"12abc"` 12, `"false"` and `""` 0);
 * - `bool`: the platform's `is_truthy` (`true`, `1`, `"1"`, `"t"`, `"true"`);
 * - `string`: PHP's `(string)` (`123` is `"123"`, `true` `"1"`, `false` `""`);
 * - `choice`: one of `x-php-choices`; any other value is the first of them
 *   where defaults apply (a new post, every query), else the field is dropped;
 * - `files`: the uploaded files of a multipart body (anything else dropped);
 * - `drop`: documented but not kept by this service;
 * - none: kept as validated (`object` too).
 *
 * A body keeps only the fields its schema lists (the platform drops the
 * rest), and a field sent as `null` is not given (PHP's `isset`). A request
 * body's `x-php-input` says whether defaults apply (`defaults: true`, the
 * platform's `input(true)` of a new post), which fields the operation drops
 * (`drop`: `type` on an edit) and the choices it narrows (`choices`: a new
 * post's `status` has no `trash`). Query parameters always get defaults
 * (`query_args()`), and those without `x-php-cast` pass through unchanged.
 *
 * Built once per contract; each operation's casts are read from the
 * dereferenced contract when it is first cast, so any operation (v1.1 or a
 * later version's) described with these keywords is cast the same way. What
 * a body's or a query's cast gives is typed from the same keywords
 * (`CastBodies`, `CastQueries`, which `npm run generate` writes from the
 * contract), so a handler asserts nothing.
 */
export interface InputCasts<Bodies = CastBodies, Queries = CastQueries> {
  /** The operation's body as the endpoint layer casts it (an empty object for no body). */
  body<Id extends keyof Bodies & string>(operationId: Id, body: unknown): Bodies[Id];
  /** The operation's query as the endpoint layer casts it: its cast parameters typed as cast, the others as given. */
  query<Id extends keyof Queries & string, Query extends object>(
    operationId: Id,
    query: Query,
  ): Omit<Query, keyof Queries[Id]> & Queries[Id];
}

type Cast = 'int' | 'bool' | 'string' | 'choice' | 'files' | 'drop' | 'object' | undefined;

interface FieldCast {
  cast: Cast;
  /** `choice`: the values known, the first being the default. */
  choices?: readonly string[];
  /** The schema's `default` (a query's `number` is 20). */
  fallback?: unknown;
}

interface OperationCasts {
  body: Map<string, FieldCast>;
  /** Whether a missing or unknown choice takes its first value (`input(true)`). */
  defaults: boolean;
  query: Map<string, FieldCast>;
}

interface SchemaNode {
  'x-php-cast'?: Cast;
  'x-php-choices'?: string[];
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

interface PhpInput {
  defaults?: boolean;
  drop?: string[];
  choices?: Record<string, string[]>;
}

interface OperationNode {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: SchemaNode }[];
  requestBody?: { 'x-php-input'?: PhpInput; content?: Record<string, { schema?: SchemaNode }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The cast a schema names: its own `x-php-cast`, else that of the one branch of its `allOf`/`anyOf` that names one. */
function fieldCast(schema: SchemaNode | undefined): FieldCast {
  if (!schema) return { cast: undefined };
  const cast = schema['x-php-cast'];
  if (cast)
    return {
      cast,
      ...(schema['x-php-choices'] ? { choices: schema['x-php-choices'] } : {}),
      ...(schema.default !== undefined ? { fallback: schema.default } : {}),
    };
  for (const branch of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const inner = fieldCast(branch);
    if (inner.cast) return inner;
  }
  return { cast: undefined };
}

/** The operations of a dereferenced document, by operationId. */
function operationsOf(document: Record<string, unknown>): Map<string, OperationNode> {
  const found = new Map<string, OperationNode>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, OperationNode>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation?.operationId) found.set(operation.operationId, operation);
    }
  }
  return found;
}

function compileOperation(operation: OperationNode): OperationCasts {
  const input = operation.requestBody?.['x-php-input'] ?? {};
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  const body = new Map<string, FieldCast>();
  // A body schema's own properties and those of its `allOf` branches (v1.2's input is v1.1's and more).
  const properties = Object.assign(
    {},
    ...(schema?.allOf ?? []).map((branch) => branch.properties ?? {}),
    schema?.properties ?? {},
  ) as Record<string, SchemaNode>;
  for (const [name, property] of Object.entries(properties)) {
    if (input.drop?.includes(name)) continue;
    const cast = fieldCast(property);
    const choices = input.choices?.[name];
    body.set(name, choices ? { ...cast, choices } : cast);
  }
  const query = new Map<string, FieldCast>();
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    const cast = fieldCast(parameter.schema);
    if (cast.cast) query.set(parameter.name, cast);
  }
  return { body, defaults: input.defaults === true, query };
}

/** PHP's `(string)` of a scalar; undefined for what it would not cast (an array or object). */
function phpString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  return undefined;
}

/** One field cast; undefined when the field is dropped. */
function castField(field: FieldCast, value: unknown, defaults: boolean): unknown {
  if (value === undefined || value === null) {
    if (!defaults) return undefined;
    if (field.cast === 'choice') return field.fallback ?? field.choices?.[0];
    return field.fallback;
  }
  switch (field.cast) {
    case 'int':
      return phpInt(value);
    case 'bool':
      return phpTruthy(value);
    case 'string':
      return phpString(value);
    case 'choice': {
      const text = phpString(value);
      if (text !== undefined && field.choices?.includes(text)) return text;
      return defaults ? (field.fallback ?? field.choices?.[0]) : undefined;
    }
    case 'files': {
      const files = (Array.isArray(value) ? value : [value]).filter((item) => item instanceof UploadedFile);
      return files.length ? files : undefined;
    }
    case 'drop':
      return undefined;
    default:
      return value;
  }
}

/** The casting step over a contract's operations (see `InputCasts`). */
export function phpInputCasts<Bodies = CastBodies, Queries = CastQueries>(
  contract: Pick<Contract, 'dereferenced'>,
): InputCasts<Bodies, Queries> {
  const operations = operationsOf(contract.dereferenced);
  const compiled = new Map<string, OperationCasts>();
  const casts = (operationId: string) => {
    let found = compiled.get(operationId);
    if (!found) {
      const operation = operations.get(operationId);
      if (!operation) throw new Error(`no operation ${operationId} in the contract`);
      compiled.set(operationId, (found = compileOperation(operation)));
    }
    return found;
  };
  return {
    body<Id extends keyof Bodies & string>(operationId: Id, body: unknown) {
      const { body: fields, defaults } = casts(operationId);
      const given = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const cast: Record<string, unknown> = {};
      for (const [name, field] of fields) {
        const value = castField(field, Object.hasOwn(given, name) ? given[name] : undefined, defaults);
        if (value !== undefined) cast[name] = value;
      }
      // The one place the cast's output meets its type: both are read from the same keywords of the contract.
      return cast as Bodies[Id];
    },
    query<Id extends keyof Queries & string, Query extends object>(operationId: Id, query: Query) {
      const { query: fields } = casts(operationId);
      const given = query as Record<string, unknown>;
      const cast: Record<string, unknown> = fields.size ? { ...given } : given;
      for (const [name, field] of fields) {
        const value = castField(field, given[name], true);
        if (value === undefined) delete cast[name];
        else cast[name] = value;
      }
      // As for a body: the cast's output and its type are read from the same keywords of the contract.
      return cast as Omit<Query, keyof Queries[Id]> & Queries[Id];
    },
  };
}
