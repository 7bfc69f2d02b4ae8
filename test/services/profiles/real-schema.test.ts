import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getProfileInferredInterestsById,
  getVerifiedAccountServices,
  searchProfilesByVerifiedAccount,
} from '../../../generated/profiles/sdk.gen.js';
import { REAL_PROFILE_FIELDS, realAnswerProblems, realProfileProblems } from '../../support/realProfileSchema.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * Every demo profile, anonymous and keyed, through the real service's own
 * published Profile schema (test/fixtures/gravatar-v3-openapi.json), made
 * strict so no field name is ours alone. The one exception is the seed's:
 * `registration_date` is a date (year-month-day), where the real document
 * says a date-time (see SEED_OVERRIDES).
 */
let harness: ProfilesTestServer;
let key: string;
beforeAll(async () => {
  harness = await startProfiles();
  ({ key } = await harness.issueKey());
});
afterAll(() => harness.close());

describe.each(['alex', 'sam', 'quiet'])('the demo profile %s', (slug) => {
  it.each(['anonymous', 'keyed'] as const)(
    'validates %s against the real published Profile schema',
    async (audience) => {
      const { status, body } = await lookup(harness, slug, audience === 'keyed' ? { key } : {});
      expect(status).toBe(200);
      expect(realProfileProblems(body)).toBeNull();
      for (const field of Object.keys(body)) expect(REAL_PROFILE_FIELDS).toContain(field);
    },
  );
});

describe('the other reads the real document publishes, by its own answer schemas', () => {
  it.each(['alex', 'sam', 'quiet'])('GET /profiles/%s/inferred-interests', async (slug) => {
    const { data, response } = await getProfileInferredInterestsById({
      client: harness.client,
      path: { profileIdentifier: slug },
      auth: key,
    });
    expect(response.status).toBe(200);
    expect(realAnswerProblems('/profiles/{profileIdentifier}/inferred-interests', 'get', 200, data)).toBeNull();
  });

  it.each(['alexmorgan', 'quinnquiet', 'nobody-at-all'])(
    'GET /profiles/search/by-verified-account?username=%s',
    async (username) => {
      const { data, response } = await searchProfilesByVerifiedAccount({
        client: harness.client,
        query: { username },
        auth: key,
      });
      expect(response.status).toBe(200);
      expect(realAnswerProblems('/profiles/search/by-verified-account', 'get', 200, data)).toBeNull();
    },
  );

  it('GET /verified-accounts/services (with our icon, the one addition let through)', async () => {
    const { data, response } = await getVerifiedAccountServices({ client: harness.client });
    expect(response.status).toBe(200);
    expect(realAnswerProblems('/verified-accounts/services', 'get', 200, data)).toBeNull();
  });
});

describe('the check itself', () => {
  it('fails an answer the real schema refuses: an empty avatar_url, an invented field, a date-time registration date', async () => {
    const { body } = await lookup(harness, 'alex', { key });
    expect(realProfileProblems({ ...body, avatar_url: '' })).toMatch(/avatar_url: must match format "uri"/);
    expect(realProfileProblems({ ...body, nickname: 'Al' })).toMatch(/must NOT have additional properties/);
    expect(
      realProfileProblems({ ...body, languages: [{ code: 'en', name: 'English', is_primary: true, order: 1, x: 1 }] }),
    ).toMatch(/languages\.0/);
    expect(realProfileProblems({ ...body, registration_date: '2019-04-12T00:00:00Z' })).toMatch(/registration_date/);
    const interests = [{ id: 1, name: 'photography', slug: '1-photography' }];
    expect(realAnswerProblems('/profiles/{profileIdentifier}/inferred-interests', 'get', 200, interests)).toBeNull();
    expect(
      realAnswerProblems('/profiles/{profileIdentifier}/inferred-interests', 'get', 200, [
        { ...interests[0], score: 1 },
      ]),
    ).toMatch(/additional/);
    expect(
      realAnswerProblems('/profiles/{profileIdentifier}/inferred-interests', 'get', 200, [{ id: 1, name: 'x' }]),
    ).toMatch(/slug/);
  });
});
