import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { OpenAPIBackend } from 'openapi-backend';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/platform/http/contract.js';

const fixture = fileURLToPath(new URL('./fixtures/dialect.yaml', import.meta.url));
const contract = await loadContract(fixture);
const addPlace = contract.byOperationId.get('addPlace')!;
const dereferencedPlace = (contract.dereferenced.components as { schemas: Record<string, object> }).schemas.Place!;

/** Whether the operation's compiled request validators accept a body. */
const requestAccepts = (body: unknown) =>
  addPlace.validateRequest.every((validate) => validate({ path: {}, query: {}, header: {}, requestBody: body }));

// Each instance breaks one 2020-12 rule that draft-07 does not know, so a draft-07 validator lets it through.
const breaking2020 = {
  prefixItems: { name: 'Harbour', at: ['north', 4.2] },
  unevaluatedProperties: { name: 'Harbour', at: [52.1, 4.2], colour: 'blue' },
  dependentRequired: { name: 'Harbour', at: [52.1, 4.2], elevation: 3 },
};

describe('schemas are compiled in the dialect of OpenAPI 3.1 (JSON Schema 2020-12)', () => {
  it('a draft-07 validator (openapi-backend without customizeAjv) accepts what 2020-12 refuses', () => {
    const draft07 = new Ajv({ strict: false }).compile(dereferencedPlace);
    for (const instance of Object.values(breaking2020)) expect(draft07(instance)).toBe(true);
  });

  it.each(Object.entries(breaking2020))('request bodies: %s is enforced', (_keyword, body) => {
    expect(requestAccepts(body)).toBe(false);
  });

  it.each(Object.entries(breaking2020))('response bodies: %s is enforced', (_keyword, body) => {
    expect(addPlace.responseValidators['201']!(body)).toBe(false);
  });

  it('a body that keeps every rule passes both ways', () => {
    const place = { name: 'Harbour', at: [52.1, 4.2], elevation: 3, unit: 'm' };
    expect(requestAccepts(place)).toBe(true);
    expect(addPlace.responseValidators['201']!(place)).toBe(true);
  });
});

describe('response headers: what each header declares, required or not', () => {
  const check = (status: number, headers: Record<string, string | string[] | number>) =>
    contract.validateResponseHeaders('addPlace', status, headers);

  it('accepts the declared headers in any letter case, and text that coerces to the declared type', () => {
    expect(check(201, { location: '/places/7', 'x-place-count': '12' })).toBeNull();
    expect(check(201, { LOCATION: '/places/7', 'X-Place-Count': 12 })).toBeNull();
  });

  it('names a required header that is missing', () => {
    expect(check(201, { 'x-place-count': '1' })).toBe('header location: is required but missing');
  });

  it('lets an optional header be absent, but checks it when present', () => {
    expect(check(201, { location: '/places/7' })).toBeNull();
    expect(check(201, { location: '/places/7', 'x-place-count': 'many' })).toMatch(/^header x-place-count: many must be integer/);
    expect(check(201, { location: '/places/7', 'x-place-count': '-1' })).toMatch(/^header x-place-count: -1 must be >= 0/);
  });

  it('checks every value of a repeated header', () => {
    expect(check(201, { location: ['/places/7', '/elsewhere'] })).toMatch(/^header location: \/elsewhere must match pattern/);
  });

  it('uses a status range (4XX) when the exact status is not declared', () => {
    expect(check(404, {})).toBe('header x-problem: is required but missing');
    expect(check(404, { 'x-problem': 'gone' })).toBeNull();
  });

  it('asks nothing of a status the operation does not declare', () => {
    expect(check(500, {})).toBeNull();
  });

  // Why these are compiled directly with Ajv: openapi-backend's own header validators cannot say this.
  it("openapi-backend's header check gets `required` wrong in both of its modes", async () => {
    const api = new OpenAPIBackend({ definition: parseYaml(readFileSync(fixture, 'utf8')), strict: true, quick: true });
    await api.init();
    const missingRequired = api.validateResponseHeaders({ 'x-place-count': '1' }, 'addPlace', { statusCode: 201 });
    expect(missingRequired.valid).toBe(true);
    const missingOptional = api.validateResponseHeaders({ location: '/places/7' }, 'addPlace', {
      statusCode: 201,
      setMatchType: 'superset' as never,
    });
    expect(missingOptional.valid).toBe(false);
  });
});
