// @store-independent
import { describe, expect, it } from 'vitest';
import { UploadedFile } from '../../../src/platform/pipeline/formBodies.js';
import { phpTruthy } from '../../../src/services/publishing/domain/phpTruthy.js';
import { phpInputCasts, phpInt } from '../../../src/services/publishing/http/phpCast.js';

/** The casting step alone: PHP's casts, and the per-operation keywords it reads from a contract. */

describe('PHP casts, as cast_and_filter applies them', () => {
  it('(int): numbers truncated, leading integers of text, 0 for the rest', () => {
    const cases: [unknown, number][] = [
      [12, 12],
      [12.9, 12],
      [-3.5, -3],
      [true, 1],
      [false, 0],
      ['12', 12],
      [' 12', 12],
      ['12abc', 12],
      ['-7', -7],
      ['1e3', 1000],
      ['7.9', 7],
      ['false', 0],
      ['', 0],
      ['abc', 0],
      [[], 0],
      [[1], 1],
      [{}, 1],
      [Number.NaN, 0],
      ['9'.repeat(30), Number.MAX_SAFE_INTEGER],
      ['-' + '9'.repeat(30), -Number.MAX_SAFE_INTEGER],
    ];
    for (const [value, expected] of cases) expect([value, phpInt(value)]).toEqual([value, expected]);
  });

  it('is_truthy: true, 1, "1", "t", "true" in any case, nothing else', () => {
    for (const value of [true, 1, '1', 't', 'T', 'true', 'TRUE']) expect(phpTruthy(value)).toBe(true);
    for (const value of [false, 0, 2, '0', 'false', 'yes', '', ' true', null]) expect(phpTruthy(value)).toBe(false);
  });
});

/** A contract of two operations written with the casting keywords: a new thing (defaults) and an edit (no defaults, a field dropped). */
const properties = {
  title: { type: 'string' },
  parent: { 'x-php-cast': 'int', anyOf: [{ type: 'integer' }, { type: 'string' }] },
  sticky: { 'x-php-cast': 'bool' },
  featured_image: { 'x-php-cast': 'string' },
  status: { 'x-php-cast': 'choice', 'x-php-choices': ['publish', 'draft', 'trash'] },
  media: { 'x-php-cast': 'files' },
  publicize: { 'x-php-cast': 'drop' },
  type: { type: 'string' },
};
const body = (phpInput: Record<string, unknown>) => ({
  'x-php-input': phpInput,
  content: { 'application/json': { schema: { type: 'object', properties } } },
});
const contract = {
  dereferenced: {
    paths: {
      '/things/new': {
        post: {
          operationId: 'createThing',
          requestBody: body({ defaults: true, choices: { status: ['publish', 'draft'] } }),
        },
      },
      '/things/{id}': { post: { operationId: 'updateThing', requestBody: body({ drop: ['type'] }) } },
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'number', in: 'query', schema: { 'x-php-cast': 'int', default: 20 } },
            {
              name: 'order',
              in: 'query',
              schema: { 'x-php-cast': 'choice', 'x-php-choices': ['DESC', 'ASC'], default: 'DESC' },
            },
            { name: 'context', in: 'query', schema: { type: 'string' } },
          ],
        },
      },
    },
  },
};

describe('the casting step, per operation of a contract', () => {
  const casts = phpInputCasts<Record<string, Record<string, unknown>>, Record<string, Record<string, unknown>>>(
    contract,
  );
  const file = new UploadedFile('media[]', 'a.jpg', 'image/jpeg', 10, false);

  it('a new thing: documented fields only, each cast, an unknown or missing choice its first allowed value', () => {
    expect(
      casts.body('createThing', {
        title: 'x',
        parent: 'false',
        sticky: 'true',
        featured_image: 201,
        status: 'trash',
        unknown: 1,
        publicize: true,
        type: 'page',
        media: [file, 'not a file'],
      }),
    ).toEqual({
      title: 'x',
      parent: 0,
      sticky: true,
      featured_image: '201',
      status: 'publish',
      type: 'page',
      media: [file],
    });
    expect(casts.body('createThing', { title: 'x' })).toEqual({ title: 'x', status: 'publish' });
  });

  it('an edit: no defaults, an unknown choice and a dropped field left out, null is not given', () => {
    expect(casts.body('updateThing', { status: 'bogus', type: 'page', title: null })).toEqual({});
    expect(casts.body('updateThing', { status: 'trash', parent: '12abc' })).toEqual({ status: 'trash', parent: 12 });
    expect(casts.body('updateThing', undefined)).toEqual({});
  });

  it('a query: cast parameters take their default, the others pass through', () => {
    expect(casts.query('listThings', { number: 'lots', order: 'sideways', context: 'edit' })).toEqual({
      number: 0,
      order: 'DESC',
      context: 'edit',
    });
    expect(casts.query('listThings', { context: 'edit' })).toEqual({ number: 20, order: 'DESC', context: 'edit' });
    expect(() => casts.body('nothing', {})).toThrow(/no operation nothing/);
  });
});
