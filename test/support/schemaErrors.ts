import type { ErrorObject } from 'ajv';

/**
 * One line naming the first failing location of an Ajv result, e.g.
 * `items.0.ID: must be integer`. The oracle's own (it imports nothing from
 * `src/`), used by the contract checker and the real-schema check.
 */
export function describeErrors(errors: readonly ErrorObject[]): string {
  const [first] = errors;
  if (!first) return 'invalid';
  const where = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing =
    first.keyword === 'required' ? ` (${(first.params as { missingProperty: string }).missingProperty})` : '';
  return `${where || 'value'}${missing}: ${first.message ?? 'invalid'}`;
}
