// @store-independent
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { OpenAPIBackend } from 'openapi-backend';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { compileContract, parseContractYaml } from '../../../src/platform/contract/document.js';
import { loadContract } from '../../../src/platform/contract/compile.js';
import { openApiAjv, sharedAjv } from '../../../src/platform/contract/ajv.js';
import type { ContractOperation } from '../../../src/platform/contract/types.js';

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
    expect(check(201, { location: '/places/7', 'x-place-count': 'many' })).toMatch(
      /^header x-place-count: many must be integer/,
    );
    expect(check(201, { location: '/places/7', 'x-place-count': '-1' })).toMatch(
      /^header x-place-count: -1 must be >= 0/,
    );
  });

  it('checks every value of a repeated header', () => {
    expect(check(201, { location: ['/places/7', '/elsewhere'] })).toMatch(
      /^header location: \/elsewhere must match pattern/,
    );
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
    const api = new OpenAPIBackend({
      definition: parseContractYaml(readFileSync(fixture, 'utf8')) as never,
      strict: true,
      quick: true,
    });
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

describe('loading a contract', () => {
  it('reads dates and other YAML types as the JSON they stand for in a contract (text), not as objects', () => {
    expect(parseContractYaml('example: 2024-01-31\nstamp: 2024-01-31T10:00:00Z\n')).toStrictEqual({
      example: '2024-01-31',
      stamp: '2024-01-31T10:00:00Z',
    });
  });

  it('compiles answer validators only when they are first asked for (start-up compiles what requests need)', async () => {
    const fresh = await loadContract(fixture);
    const operation = fresh.byOperationId.get('addPlace')!;
    expect(Object.getOwnPropertyDescriptor(operation, 'responseValidators')?.get).toBeTypeOf('function');
    const validators = operation.responseValidators;
    expect(validators['201']).toBeTypeOf('function');
    // Compiled once: the second read is the same object, now a plain value.
    expect(operation.responseValidators).toBe(validators);
    expect(Object.getOwnPropertyDescriptor(operation, 'responseValidators')?.value).toBe(validators);
  });
});

describe('answer validators are compiled once per schema, not once per operation', () => {
  const publishingFile = fileURLToPath(new URL('../../../openapi/publishing.yaml', import.meta.url));

  it('a response many operations share (`#/components/responses/…`) is one validator for all of them', async () => {
    const fresh = await loadContract(publishingFile);
    const shared = fresh.operations
      .map((operation) => operation.responseValidators['400'])
      .filter((validate) => validate !== undefined);
    expect(shared.length).toBeGreaterThan(10);
    expect(new Set(shared).size).toBeLessThan(shared.length / 4);
  });

  it('a header schema is compiled once, however many answers declare it', async () => {
    const fresh = await loadContract(publishingFile);
    const ajv = sharedAjv({ coerceTypes: true });
    const compile = vi.spyOn(ajv, 'compile');
    try {
      const schemas = new Set<string>();
      for (const operation of fresh.operations) {
        const responses = (fresh.dereferenced.paths as Record<string, Record<string, { responses: object }>>)[
          operation.path
        ]![operation.method.toLowerCase()]!.responses as Record<
          string,
          { headers?: Record<string, { schema?: object }> }
        >;
        for (const [status, response] of Object.entries(responses)) {
          for (const header of Object.values(response.headers ?? {}))
            if (header.schema) schemas.add(JSON.stringify(header.schema));
          if (/^\d+$/.test(status)) fresh.validateResponseHeaders(operation.operationId, Number(status), {});
        }
      }
      expect(schemas.size).toBeGreaterThan(3);
      expect(compile.mock.calls.length).toBeLessThanOrEqual(schemas.size);
    } finally {
      compile.mockRestore();
    }
  });
});

describe('request validators', () => {
  it("compile when first read, each operation's alone: the others stay uncompiled", async () => {
    const fresh = await loadContract(fileURLToPath(new URL('../../../openapi/profiles.yaml', import.meta.url)));
    const compiled = (operation: ContractOperation) =>
      Object.getOwnPropertyDescriptor(operation, 'validateRequest')?.value as unknown[] | undefined;
    expect(fresh.operations.map(compiled)).toEqual(fresh.operations.map(() => undefined));
    const [first, ...rest] = fresh.operations;
    expect(first!.validateRequest.length).toBeGreaterThan(0);
    expect(compiled(first!)).toBe(first!.validateRequest);
    expect(rest.length).toBeGreaterThan(0);
    for (const operation of rest) expect(compiled(operation), operation.operationId).toBeUndefined();
  });
});

describe('every schema of every contract is valid JSON Schema 2020-12', () => {
  const contracts = ['profiles', 'publishing', 'developer'].map((name) =>
    fileURLToPath(new URL(`../../../openapi/${name}.yaml`, import.meta.url)),
  );
  // The check start-up leaves out (see `openApiAjv`): every schema against the 2020-12 meta-schema.
  const checker = openApiAjv({ validateSchema: true });

  /** Every schema object of a document: its components' schemas and each `schema` of a parameter, body or header. */
  function schemasOf(node: unknown, at = '#', out: [string, object][] = []): [string, object][] {
    if (!node || typeof node !== 'object') return out;
    for (const [key, value] of Object.entries(node)) {
      const where = `${at}/${key}`;
      if (key === 'schema' && value && typeof value === 'object') out.push([where, value]);
      else if (at === '#/components/schemas' && value && typeof value === 'object') out.push([where, value]);
      else schemasOf(value, where, out);
    }
    return out;
  }

  /** The first schema that fails the meta-schema, with Ajv's reason. */
  const firstInvalid = (document: unknown) => {
    for (const [where, schema] of schemasOf(document)) {
      if (!checker.validateSchema(schema)) return `${where}: ${checker.errorsText(checker.errors)}`;
    }
    return null;
  };

  it.each(contracts)('%s', (file) => {
    const document = parseContractYaml(readFileSync(file, 'utf8'));
    expect(schemasOf(document).length).toBeGreaterThan(10);
    expect(firstInvalid(document)).toBeNull();
  });

  it('the check finds a broken schema (the control)', () => {
    const document = {
      components: { schemas: { Place: { type: 'object', properties: { name: { type: 'strin' } } } } },
    };
    expect(firstInvalid(document)).toMatch(/^#\/components\/schemas\/Place: /);
  });
});

describe('the contract the build wrote as JSON', () => {
  const text = readFileSync(fixture, 'utf8');
  /** A folder holding the build's JSON of the fixture, with a title of its own so a test sees which was read. */
  function compiledDir(sha256: string) {
    const dir = mkdtempSync(join(tmpdir(), 'compiled-contracts-'));
    const { document } = compileContract(text);
    const marked = { ...document, info: { ...(document.info as object), title: 'read from the JSON' } };
    writeFileSync(join(dir, 'dialect.json'), JSON.stringify({ sha256, document: marked }));
    return pathToFileURL(`${dir}/`);
  }
  const titleOf = (contract: { document: Record<string, unknown> }) =>
    (contract.document.info as { title: string }).title;

  it('is read instead of the YAML when it was made from this very YAML', async () => {
    const contract = await loadContract(fixture, { compiledDir: compiledDir(compileContract(text).sha256) });
    expect(titleOf(contract)).toBe('read from the JSON');
    expect(contract.byOperationId.has('addPlace')).toBe(true);
  });

  it('is ignored once the YAML has changed since the build (another SHA-256), or when there is none', async () => {
    const yamlTitle = (parseContractYaml(text).info as { title: string }).title;
    expect(yamlTitle).not.toBe('read from the JSON');
    expect(titleOf(await loadContract(fixture, { compiledDir: compiledDir('0'.repeat(64)) }))).toBe(yamlTitle);
    expect(
      titleOf(await loadContract(fixture, { compiledDir: pathToFileURL(`${mkdtempSync(join(tmpdir(), 'none-'))}/`) })),
    ).toBe(yamlTitle);
  });
});
