/**
 * Optional parameters off until the reader turns them on. Scalar's try-it
 * console and its code samples (curl and the others) send every parameter
 * that has an example value, so a copied sample asked for everything the
 * contract illustrates: publishing's answered JSONP (`callback`), three
 * fields (`fields`), an envelope. Scalar leaves out a parameter whose example
 * says `x-disabled: true` (an Example Object extension), still showing its
 * value ready to tick. This marks so the example of every parameter that is
 * neither required nor in the path, wherever the document declares it
 * (operations, path items, `components.parameters`), and gives one to an
 * optional parameter whose only value is its schema's `default`, first
 * example or first `enum` (which Scalar would fill in too).
 */
import type { OpenApiDocument } from '../contracts.js';

interface Parameter {
  in?: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, Record<string, unknown>>;
  schema?: { $ref?: string; default?: unknown; enum?: unknown[] };
  $ref?: string;
}

/** The object a local `$ref` points at, followed until it is not a `$ref`. */
function resolved(document: OpenApiDocument, value: unknown): Record<string, unknown> | undefined {
  let current = value;
  for (let hops = 0; hops < 20 && current && typeof current === 'object' && '$ref' in current; hops++) {
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  }
  return current && typeof current === 'object' ? (current as Record<string, unknown>) : undefined;
}

/** An optional parameter with its examples marked off (named examples inlined, since a `$ref` takes no extension). */
function offByDefault(document: OpenApiDocument, parameter: Parameter): Parameter {
  if (parameter.$ref || parameter.required || parameter.in === 'path') return parameter;
  const { example, examples, ...rest } = parameter;
  if (examples && Object.keys(examples).length) {
    const marked = Object.fromEntries(
      Object.entries(examples).map(([name, item]) => [name, { ...resolved(document, item), 'x-disabled': true }]),
    );
    return { ...rest, examples: marked };
  }
  // A `$ref` may have siblings (`default`), which win over the schema it names.
  const schema = { ...resolved(document, parameter.schema), ...parameter.schema } as NonNullable<
    Parameter['schema']
  > & { examples?: unknown[] };
  // Without an example Scalar would still fill one in (an integer's minimum): give it one, off like the rest.
  const value = example ?? schema.default ?? schema.examples?.[0] ?? schema.enum?.[0] ?? placeholderOf(schema);
  return value === undefined ? parameter : { ...rest, examples: { example: { value, 'x-disabled': true } } };
}

/** A value of a schema's type for a parameter that names none (its minimum, false, the empty text or list). */
function placeholderOf(described: object): unknown {
  const schema = described as { type?: unknown; minimum?: unknown };
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return false;
  if (type === 'string') return '';
  if (type === 'array') return [];
  return undefined;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The document with every optional parameter's example off by default (see above). */
export function withOptionalParametersOff(document: OpenApiDocument): OpenApiDocument {
  const list = (parameters: unknown) =>
    Array.isArray(parameters)
      ? parameters.map((parameter: Parameter) => offByDefault(document, parameter))
      : parameters;
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, unknown>).map(([key, value]) => {
          if (key === 'parameters') return [key, list(value)];
          if (!METHODS.has(key) || !value || typeof value !== 'object') return [key, value];
          const operation = value as { parameters?: unknown };
          return [key, operation.parameters ? { ...operation, parameters: list(operation.parameters) } : operation];
        }),
      ),
    ]),
  );
  const components = document.components as { parameters?: Record<string, Parameter> } | undefined;
  const parameters =
    components?.parameters &&
    Object.fromEntries(
      Object.entries(components.parameters).map(([name, parameter]) => [name, offByDefault(document, parameter)]),
    );
  return { ...document, paths, ...(parameters ? { components: { ...components, parameters } } : {}) };
}
