import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfileInferredInterestsById } from '../../../generated/profiles/sdk.gen.js';
import { issueApiKey } from '../../../src/accounts/apiKey.js';
import { emailHashes } from '../../../src/accounts/email.js';
import { realAnswerProblems } from '../../support/realProfileSchema.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * `GET /v3/profiles/{profileIdentifier}/inferred-interests`: what the store
 * holds for the profile, in the real answer's shape, for keyed callers only,
 * counted against the key's limit as lookups are. Every answer goes through
 * the contract-checking fetch.
 */
let harness: ProfilesTestServer;
let key: string;
beforeAll(async () => {
  harness = await startProfiles({ RATE_LIMIT_KEYED: '50', RATE_LIMIT_ACCOUNT: '50' });
  ({ key } = await harness.issueKey());
});
afterAll(() => harness.close());

const REAL_PATH = '/profiles/{profileIdentifier}/inferred-interests';

async function inferred(identifier: string, options: { key?: string; headers?: Record<string, string> } = {}) {
  const result = await getProfileInferredInterestsById({
    client: harness.client,
    path: { profileIdentifier: identifier },
    headers: options.headers,
    ...(options.key === undefined ? {} : { auth: options.key }),
  });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as unknown,
    headers: result.response.headers,
  };
}

describe('a keyed caller', () => {
  it("gets the inferred interests the store holds, with their slugs, in the real answer's shape", async () => {
    const answer = await inferred('alex', { key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: 31, name: 'Gardening', slug: '31-gardening' },
      { id: 44, name: 'Dogs', slug: '44-dogs' },
      { id: 27, name: 'Landscape Architecture', slug: '27-landscape-architecture' },
    ]);
    expect(realAnswerProblems(REAL_PATH, 'get', 200, answer.body)).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.headers.get('vary')).toMatch(/Authorization/);
  });

  it('finds the profile by any of its identifiers, and gets [] where none were inferred', async () => {
    const { sha256, md5 } = emailHashes('alex@example.com');
    for (const identifier of [sha256, md5, sha256.toUpperCase(), 'Alex']) {
      expect((await inferred(identifier, { key })).body).toHaveLength(3);
    }
    const sam = await inferred('sam', { key });
    expect(sam).toMatchObject({ status: 200, body: [] });
    expect(realAnswerProblems(REAL_PATH, 'get', 200, sam.body)).toBeNull();
  });

  it('gets 404 for an identifier that names no profile, with the rate-limit headers', async () => {
    for (const identifier of ['nobody', 'a'.repeat(64), '%E2%9C%93']) {
      const answer = await inferred(identifier, { key });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Profile not found', code: 'not_found' });
      expect(answer.headers.get('x-ratelimit-limit')).toBe('50');
    }
  });

  it("gets 400 in the service's error format for an identifier over 128 characters", async () => {
    const answer = await inferred('a'.repeat(129), { key });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request' });
  });

  it("counts against the key's hourly limit together with its lookups", async () => {
    const { key: counted } = await harness.issueKey('counted@example.com');
    const remaining = (answer: { headers: Headers }) => Number(answer.headers.get('x-ratelimit-remaining'));
    const first = await lookup(harness, 'alex', { key: counted });
    const second = await inferred('alex', { key: counted });
    const third = await lookup(harness, 'sam', { key: counted });
    expect([first, second, third].map(remaining)).toEqual([49, 48, 47]);
  });

  it('answers 304 to its own ETag', async () => {
    const first = await inferred('alex', { key });
    const again = await inferred('alex', { key, headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('a caller without a valid key', () => {
  it.each([
    ['no Authorization header', {}, 'Bearer realm="profiles"'],
    [
      'a malformed key',
      { headers: { Authorization: 'Bearer not-a-key' } },
      'Bearer realm="profiles", error="invalid_token"',
    ],
    ['a key nobody issued', { key: issueApiKey().key }, 'Bearer realm="profiles", error="invalid_token"'],
  ])("is refused 401 with %s, in the service's error format", async (_what, options, challenge) => {
    const answer = await inferred('alex', options);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'You are not authorized to perform this action', code: 'unauthorized' });
    // RFC 6750 §3: the challenge, with invalid_token only when a credential was sent.
    expect(answer.headers.get('www-authenticate')).toBe(challenge);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // Counted as an anonymous lookup (guessing keys costs the guesser's budget), with the headers the contract declares.
    expect(answer.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(100);
  });
});
