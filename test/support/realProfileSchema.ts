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
const reference = JSON.parse(
  readFileSync(new URL('../fixtures/gravatar-v3-openapi.json', import.meta.url), 'utf8'),
) as {
  components: { schemas: Record<string, Record<string, unknown>> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
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
export const REAL_PROFILE_FIELDS: readonly string[] = Object.keys(
  reference.components.schemas.Profile!.properties as object,
);

/**
 * Checks a profile answer against the real service's published Profile
 * schema (strict, with `SEED_OVERRIDES`): null when it validates, else the
 * problems, one per line.
 */
export function realProfileProblems(answer: unknown): string | null {
  if (validateProfile(answer)) return null;
  return (validateProfile.errors ?? []).map((error) => describeErrors([error])).join('\n');
}

const answerValidators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Where our answers add to the real document's, and why: each service of
 * `GET /verified-accounts/services` carries its `icon` (the one source of
 * the `service_icon` profiles show), which the real list does not publish.
 * The addition is checked as our contract describes it; nothing else is
 * let through.
 */
export const ANSWER_ADDITIONS: Record<
  string,
  (schema: { properties: Record<string, { items: { properties: Record<string, object> } }> }) => void
> = {
  'get /verified-accounts/services 200': (schema) => {
    schema.properties.services!.items.properties.icon = { type: 'string', format: 'uri' };
  },
};

/**
 * Checks an answer body against the JSON schema the real document gives
 * that path, method and status (strict as above, its `$ref`s into the same
 * strict, seed-overridden components): null when it validates, else the
 * problems, one per line. Throws when the real document has no JSON answer
 * there, so a check cannot pass by looking at nothing.
 */
export function realAnswerProblems(path: string, method: string, status: number, answer: unknown): string | null {
  const id = `${method} ${path} ${status}`;
  let validate = answerValidators.get(id);
  if (!validate) {
    const schema = reference.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`the real document has no JSON answer for ${id}`);
    const strictSchema = strict(schema) as Parameters<(typeof ANSWER_ADDITIONS)[string]>[0];
    ANSWER_ADDITIONS[id]?.(strictSchema);
    validate = ajv.compile({ components: { schemas }, ...strictSchema });
    answerValidators.set(id, validate);
  }
  if (validate(answer)) return null;
  return (validate.errors ?? []).map((error) => describeErrors([error])).join('\n');
}
