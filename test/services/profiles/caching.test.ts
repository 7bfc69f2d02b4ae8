import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer;
let key: string;
beforeAll(async () => {
  harness = await startProfiles({ PROFILE_CACHE_SECONDS: '120' });
  ({ key } = await harness.issueKey());
});
afterAll(() => harness.close());

const varies = (headers: Headers) => (headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());

describe('ETag and If-None-Match', () => {
  it('a 200 carries an ETag; sending it back answers 304 with no body and the rate-limit headers', async () => {
    const first = await lookup(harness, 'alex');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);

    const again = await lookup(harness, 'alex', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=120');
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
    expect(again.headers.get('x-ratelimit-limit')).toBe('100');
    expect(again.headers.get('x-ratelimit-reset')).not.toBeNull();
  });

  it('matches an ETag in a list, and a weak one', async () => {
    const etag = (await lookup(harness, 'alex')).headers.get('etag')!;
    expect((await lookup(harness, 'alex', { headers: { 'If-None-Match': `"other", ${etag}` } })).status).toBe(304);
    expect((await lookup(harness, 'alex', { headers: { 'If-None-Match': `W/${etag}` } })).status).toBe(304);
  });

  it('is honoured even when the request also says Cache-Control: no-cache (fetch adds it to conditional requests)', async () => {
    const etag = (await lookup(harness, 'alex')).headers.get('etag')!;
    const headers = { 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' };
    expect((await lookup(harness, 'alex', { headers })).status).toBe(304);
    expect((await lookup(harness, 'alex', { headers: { 'If-None-Match': '*' } })).status).toBe(304);
  });

  it('answers the full profile for an ETag that no longer matches', async () => {
    const { status, body } = await lookup(harness, 'alex', { headers: { 'If-None-Match': '"stale"' } });
    expect(status).toBe(200);
    expect(body.display_name).toBe('Alex Morgan');
  });

  it('differs between the anonymous and the keyed answer, so neither revalidates the other', async () => {
    const anonymous = (await lookup(harness, 'alex')).headers.get('etag')!;
    const keyed = await lookup(harness, 'alex', { key });
    expect(keyed.headers.get('etag')).not.toBe(anonymous);
    const revalidated = await lookup(harness, 'alex', { key, headers: { 'If-None-Match': anonymous } });
    expect(revalidated.status).toBe(200);
    expect(revalidated.body).toHaveProperty('links');
    expect(
      (await lookup(harness, 'alex', { key, headers: { 'If-None-Match': keyed.headers.get('etag')! } })).status,
    ).toBe(304);
  });

  it('a HEAD carries the same ETag as the GET, and no body', async () => {
    const get = await lookup(harness, 'alex');
    const head = await harness.call(`${harness.server.url}/v3/profiles/alex`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('differs between profiles and is stable for the same one', async () => {
    const alex = (await lookup(harness, 'alex')).headers.get('etag');
    const sam = (await lookup(harness, 'sam')).headers.get('etag');
    expect(alex).not.toBe(sam);
    expect((await lookup(harness, 'alex')).headers.get('etag')).toBe(alex);
  });
});

describe('Cache-Control and Vary', () => {
  it('an anonymous answer may be cached publicly for PROFILE_CACHE_SECONDS', async () => {
    const { headers } = await lookup(harness, 'alex');
    expect(headers.get('cache-control')).toBe('public, max-age=120');
    expect(varies(headers)).toEqual(expect.arrayContaining(['authorization', 'origin']));
  });

  it('a keyed answer must never be stored by a shared cache', async () => {
    const { headers } = await lookup(harness, 'alex', { key });
    expect(headers.get('cache-control')).toBe('private, no-store');
    expect(varies(headers)).toContain('authorization');
  });

  it('an error answer is not stored', async () => {
    const { status, headers } = await lookup(harness, 'nobody-here');
    expect(status).toBe(404);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('etag')).toBeNull();
    expect(varies(headers)).toContain('authorization');
  });
});
