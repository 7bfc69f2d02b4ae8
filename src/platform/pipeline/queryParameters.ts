import type { ContractOperation } from '../contract/types.js';

/** The query parameters an operation declares, by name, and how each is read (`ContractOperation.queryParams`). */
export type QueryDeclaration = ContractOperation['queryParams'];

/** The platform's boolean spellings, any case: those of the WordPress.com endpoint layer (`is_truthy`, `is_falsy`), and empty as false. */
const TRUE_SPELLINGS = new Set(['1', 't', 'true']);
const FALSE_SPELLINGS = new Set(['0', 'f', 'false', '']);

/**
 * The declared query parameters of a request, as the validators and the
 * presenters read them: undeclared names are left out (unknown ones such as
 * `source` are accepted and ignored), a repeated scalar parameter keeps its
 * last value, and a parameter that accepts a boolean reads the platform's
 * spellings (`1`, `t`, `true` are true; `0`, `f`, `false` and empty are
 * false; any case); any other text is kept as it is, for the validators (a
 * `Flag` of the publishing contract accepts it, and it is then not true).
 * The pipeline validates what this returns; a presenter that must answer
 * even a request that failed validation reads its options with it too, so
 * both read every value alike.
 *
 * An array parameter is always an array: one value, repeated values, and
 * values in PHP's brackets (`exclude[]=5`, `exclude[0]=5`, as the
 * platform's clients send them) together. An object parameter
 * (`style: deepObject`) is gathered from `name[key]=value` (the last value
 * of a repeated key).
 */
export function readQuery(
  raw: Readonly<Record<string, string | string[] | undefined>>,
  declared: QueryDeclaration,
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  let bracketed: Map<string, [string, string | string[]][]> | undefined;
  for (const [name, spec] of declared) {
    let value = raw[name];
    if (spec.array || spec.object) {
      bracketed ??= bracketedKeys(raw);
      const parts = bracketed.get(name);
      if (spec.object) {
        if (parts)
          query[name] = Object.fromEntries(
            parts.map(([key, one]) => [key, Array.isArray(one) ? one[one.length - 1] : one]),
          );
        continue;
      }
      if (value === undefined && !parts) continue;
      query[name] = [...(value === undefined ? [] : [value]), ...(parts ?? []).map(([, one]) => one)].flat();
      continue;
    }
    if (value === undefined) continue;
    if (Array.isArray(value) && !spec.array) value = value[value.length - 1];
    if (spec.boolean && typeof value === 'string') {
      const spelled = value.toLowerCase();
      query[name] = TRUE_SPELLINGS.has(spelled) ? true : FALSE_SPELLINGS.has(spelled) ? false : value;
    } else {
      query[name] = value;
    }
  }
  return query;
}

/** The raw parameters named `base[key]`, by base: `[key, value]` in the order sent (empty key for `base[]`). */
function bracketedKeys(
  raw: Readonly<Record<string, string | string[] | undefined>>,
): Map<string, [string, string | string[]][]> {
  const found = new Map<string, [string, string | string[]][]>();
  for (const key in raw) {
    const value = raw[key];
    if (value === undefined || !key.endsWith(']')) continue;
    const open = key.indexOf('[');
    if (open <= 0 || key.indexOf('[', open + 1) !== -1) continue;
    const base = key.slice(0, open);
    let parts = found.get(base);
    if (!parts) found.set(base, (parts = []));
    parts.push([key.slice(open + 1, -1), value]);
  }
  return found;
}
