import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * A number past what the store holds (PostgreSQL's `integer`: 2^31 - 1)
 * where the contract lets one through names nothing, on either store: the
 * same answer as any other unknown ID, never a 500. (Every integer
 * parameter of every operation gets such values in the bad-input
 * catalogue: `LARGE_INTEGERS`; these are the places inside other values.)
 */
let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const site = 'demo.example.com';
const PAST = 2 ** 31;
const handle = (value: string | number, id: number) => encodeURIComponent(`value=${value}&id=${id}`);
const ids = (items: { ID: number }[]) => items.map((item) => item.ID);

describe('a page handle naming an ID past the store', () => {
  it('of the media library starts from the first page, as a handle naming nothing does', async () => {
    const first = await callJson(harness, 'GET', `/rest/v1.1/sites/${site}/media?number=2`, admin);
    expect(first.status).toBe(200);
    expect(first.body.media.length).toBeGreaterThan(0);
    for (const [value, orderBy] of [
      ['2020-01-01T00:00:00+00:00', 'date'],
      [PAST, 'ID'],
    ] as const) {
      const res = await callJson(
        harness,
        'GET',
        `/rest/v1.1/sites/${site}/media?number=2&order_by=${orderBy}&page_handle=${handle(value, PAST)}`,
        admin,
      );
      expect(res.status).toBe(200);
      const plain = await callJson(
        harness,
        'GET',
        `/rest/v1.1/sites/${site}/media?number=2&order_by=${orderBy}`,
        admin,
      );
      expect(ids(res.body.media)).toEqual(ids(plain.body.media));
    }
  });

  it('of a post list starts from the first page too', async () => {
    const res = await callJson(
      harness,
      'GET',
      `/rest/v1.1/sites/${site}/posts?number=2&order_by=ID&page_handle=${handle(PAST, PAST)}`,
      admin,
    );
    const plain = await callJson(harness, 'GET', `/rest/v1.1/sites/${site}/posts?number=2&order_by=ID`, admin);
    expect(res.status).toBe(200);
    expect(ids(res.body.posts)).toEqual(ids(plain.body.posts));
  });
});

describe('a media list of a parent past the store', () => {
  it('is empty, as for any post that does not exist', async () => {
    for (const parent of [PAST, Number.MAX_SAFE_INTEGER, 999_999]) {
      const res = await callJson(harness, 'GET', `/rest/v1.1/sites/${site}/media?post_ID=${parent}`, admin);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ found: 0, media: [] });
    }
  });
});
