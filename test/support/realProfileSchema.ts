import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describeErrors } from './schemaErrors.js';

/*
 * An oracle like the contract checker: it judges the server's answers by the
 * real service's published schema, and imports nothing from `src/`
 * (test/contract/oracle.test.ts scans it).
 */

/**
 * The real profiles service's own published OpenAPI document (its public
 * `/v3/openapi`, July 2025), kept in the repository so tests need nothing
 * outside it.
 */
const reference = JSON.parse(readFileSync(new URL('../fixtures/gravatar-v3-openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Record<string, unknown>> };
};

/**
 * Where our seed overrides the real schema, and why. The seed says
 * `registration_date` is "string, date (year-month-day)"; the real document
 * says a date-time. The seed wins, so that one property is checked as the
 * seed describes it instead.
 */
export const SEED_OVERRIDES: Record<string, object> = {
  registration_date: { type: ['string', 'null'], format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
};

/**
 * The real schemas made strict: every object schema that lists properties
 * takes no others, so an answer can carry no field name, at any depth, that
 * the real service does not publish.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, strict(value)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

const schemas = strict(reference.components.schemas) as Record<string, { properties: Record<string, object> }>;
schemas.Profile!.properties = { ...schemas.Profile!.properties, ...SEED_OVERRIDES };

// The document's own `nullable` (an OpenAPI 3.0 leftover beside `type: [..., 'null']`) is not a JSON Schema keyword.
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
const validateProfile = ajv.compile({ components: { schemas }, $ref: '#/components/schemas/Profile' });

/** The property names of the real Profile schema. */
export const REAL_PROFILE_FIELDS: readonly string[] = Object.keys(reference.components.schemas.Profile!.properties as object);

/**
 * Checks a profile answer against the real service's published Profile
 * schema (strict, with `SEED_OVERRIDES`): null when it validates, else the
 * problems, one per line.
 */
export function realProfileProblems(answer: unknown): string | null {
  if (validateProfile(answer)) return null;
  return (validateProfile.errors ?? []).map((error) => describeErrors([error])).join('\n');
}
