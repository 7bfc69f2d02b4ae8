// @store-independent
import { describe, expect, it } from 'vitest';
import { castTypes, namesCasts } from '../../scripts/generate-casts.js';

/**
 * `casts.gen.ts` (scripts/generate-casts.ts): each request body typed as the casting step hands it on, from the
 * same keywords of the contract the step reads (`x-php-cast`, `x-php-input`), so a handler asserts nothing.
 */
const document = {
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [
          { name: 'count', in: 'query', schema: { $ref: '#/components/schemas/Count' } },
          { name: 'order', in: 'query', schema: { 'x-php-cast': 'choice', 'x-php-choices': ['DESC', 'ASC'] } },
          { name: 'exact', in: 'query', schema: { anyOf: [{ 'x-php-cast': 'bool' }, { type: 'string' }] } },
          { name: 'search', in: 'query', schema: { type: 'string' } },
          { $ref: '#/components/parameters/Cursor' },
          { name: 'count', in: 'header', schema: { 'x-php-cast': 'int' } },
        ],
      },
      post: {
        operationId: 'createThing',
        requestBody: {
          'x-php-input': { defaults: true, drop: ['secret'], choices: { status: ['open', 'closed'] } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingInput' } } },
        },
      },
      put: {
        operationId: 'editThing',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingInput' } } } },
      },
    },
  },
  components: {
    parameters: { Cursor: { name: 'cursor', in: 'query', schema: { 'x-php-cast': 'string' } } },
    schemas: {
      Count: { 'x-php-cast': 'int', default: 3 },
      ThingInput: {
        properties: {
          count: { $ref: '#/components/schemas/Count' },
          shown: { anyOf: [{ 'x-php-cast': 'bool' }, { type: 'null' }] },
          status: { 'x-php-cast': 'choice', 'x-php-choices': ['open', 'closed', 'gone'] },
          label: { type: 'string' },
          files: { 'x-php-cast': 'files' },
          old: { 'x-php-cast': 'drop' },
          secret: { 'x-php-cast': 'string' },
        },
      },
    },
  },
};

describe('the cast types', () => {
  const generated = castTypes('things', document);
  /** The fields of an operation in the interface `name` of the generated file. */
  const fieldsIn = (name: string, operationId: string) =>
    new RegExp(`  ${operationId}: \\{\\n([^}]*)\\n  \\};`)
      .exec(generated.slice(generated.indexOf(`export interface ${name} {`)))?.[1]
      ?.split('\n')
      .map((line) => line.trim());
  const body = (operationId: string) => fieldsIn('CastBodies', operationId);

  it('types each field by its cast; defaults make a choice and a field with a default always there', () => {
    expect(body('createThing')).toEqual([
      'count: number;',
      'shown?: boolean;',
      "status: 'open' | 'closed';",
      "label?: Exclude<NonNullable<T.CreateThingData['body']>['label'], null | undefined>;",
      'files?: UploadedFile[];',
    ]);
  });

  it('without defaults every field is optional, and a choice keeps all its values', () => {
    expect(body('editThing')).toEqual([
      'count?: number;',
      'shown?: boolean;',
      "status?: 'open' | 'closed' | 'gone';",
      "label?: Exclude<NonNullable<T.EditThingData['body']>['label'], null | undefined>;",
      'files?: UploadedFile[];',
      'secret?: string;',
    ]);
  });

  it("types a query's cast parameters, where a choice and a cast with a default are always there (a query gets defaults); the others pass through untyped here", () => {
    expect(fieldsIn('CastQueries', 'listThings')).toEqual([
      'count: number;',
      "order: 'DESC' | 'ASC';",
      'exact?: boolean;',
      'cursor?: string;',
    ]);
    expect(fieldsIn('CastQueries', 'createThing')).toBeUndefined();
  });

  it('is written only for a contract that names casts', () => {
    expect(namesCasts('x-php-cast: int')).toBe(true);
    expect(namesCasts('type: string')).toBe(false);
  });
});
