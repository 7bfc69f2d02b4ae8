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
  const body = (operationId: string) =>
    new RegExp(`  ${operationId}: \\{\\n([^}]*)\\n  \\};`)
      .exec(generated)?.[1]
      ?.split('\n')
      .map((line) => line.trim());

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

  it('is written only for a contract that names casts', () => {
    expect(namesCasts('x-php-cast: int')).toBe(true);
    expect(namesCasts('type: string')).toBe(false);
  });
});
