// @store-independent
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/platform/contract/compile.js';
import { readQuery } from '../../../src/platform/pipeline/queryParameters.js';
import { readPresentation } from '../../../src/services/publishing/http/present.js';

/**
 * One reader of the query (`readQuery`), driven by what each operation
 * declares: the pipeline validates what it returns, and the publishing
 * presenter reads its options (`http_envelope`, `pretty`, `fields`,
 * `callback`) with it, so the two can no longer read a value two ways.
 */
const contract = await loadContract(fileURLToPath(new URL('../../../openapi/publishing.yaml', import.meta.url)));
const declaredBy = (operationId: string) => contract.byOperationId.get(operationId)!.queryParams;

describe('readQuery', () => {
  const flags = new Map([
    ['pretty', { boolean: true, array: false }],
    ['status', { boolean: false, array: true }],
  ]);

  it.each([
    ['1', true],
    ['t', true],
    ['T', true],
    ['true', true],
    ['TRUE', true],
    ['0', false],
    ['f', false],
    ['False', false],
    ['', false],
    // The values outside both spellings: kept as text for the validators (a `Flag` accepts them), never true.
    ['yes', 'yes'],
    ['on', 'on'],
    ['2', '2'],
    ['TRUE!', 'TRUE!'],
  ])('reads a flag spelled %j as %j', (value, read) => {
    expect(readQuery({ pretty: value }, flags)).toEqual({ pretty: read });
  });

  it('keeps the last value of a repeated scalar, every value of an array, and leaves out what the operation does not declare', () => {
    expect(readQuery({ pretty: ['1', 'yes'], status: ['draft', 'publish'], source: 'x' }, flags)).toEqual({
      pretty: 'yes',
      status: ['draft', 'publish'],
    });
  });
});

describe('readQuery: arrays and objects as the platform\u2019s clients send them', () => {
  const declared = new Map([
    ['exclude', { boolean: false, array: true }],
    ['term', { boolean: false, array: false, object: true }],
    ['tag', { boolean: false, array: false }],
  ]);

  it('makes an array of one value, of repeated values, and of PHP\u2019s bracketed values, in the order sent', () => {
    expect(readQuery({ exclude: '5' }, declared)).toEqual({ exclude: ['5'] });
    expect(readQuery({ exclude: ['5', '6'] }, declared)).toEqual({ exclude: ['5', '6'] });
    expect(readQuery({ 'exclude[]': ['5', '6'], 'exclude[2]': '7' }, declared)).toEqual({ exclude: ['5', '6', '7'] });
    expect(readQuery({ exclude: '4', 'exclude[0]': '5' }, declared)).toEqual({ exclude: ['4', '5'] });
  });

  it('gathers an object from name[key]=value (the last of a repeated key); other bracketed names are left out', () => {
    expect(readQuery({ 'term[category]': 'news,sport', 'term[post_tag]': ['a', 'b'] }, declared)).toEqual({
      term: { category: 'news,sport', post_tag: 'b' },
    });
    expect(readQuery({ 'tag[x]': 'y', 'term[a][b]': 'c', '[x]': 'y' }, declared)).toEqual({});
  });

  it('reads the list operation\u2019s declarations so', () => {
    expect(readQuery({ 'term[category]': 'news', 'exclude[]': '5' }, declaredBy('listPosts'))).toEqual({
      term: { category: 'news' },
      exclude: ['5'],
    });
  });
});

describe("the publishing presenter's options, read with the same reader", () => {
  it.each(['1', 't', 'TRUE', 'True'])('%s is true for http_envelope and pretty', (value) => {
    const how = readPresentation({ http_envelope: value, pretty: value }, declaredBy('getPost'));
    expect([how.envelope, how.pretty]).toEqual([true, true]);
  });

  // Where the presenter's old regex and the pipeline's spellings parted: text the validators accept, which is not true (`is_truthy`).
  it.each(['yes', 'on', '2', 'TRUE!', '0', 'false', ''])('%j is false for http_envelope and pretty', (value) => {
    const how = readPresentation({ http_envelope: value, pretty: value }, declaredBy('getPost'));
    expect([how.envelope, how.pretty]).toEqual([false, false]);
  });

  it('applies fields only where the operation declares it, and callback likewise', () => {
    const raw = { fields: ' ID , title,', callback: 'cb<script>' };
    expect(readPresentation(raw, declaredBy('getPost'))).toMatchObject({
      fields: ['ID', 'title'],
      callback: 'cbscript',
    });
    expect(declaredBy('getPostCounts').has('fields')).toBe(false);
    expect(readPresentation(raw, declaredBy('getPostCounts'))).toMatchObject({
      fields: undefined,
      callback: 'cbscript',
    });
    expect(readPresentation(raw, new Map())).toMatchObject({ fields: undefined, callback: undefined });
  });
});
