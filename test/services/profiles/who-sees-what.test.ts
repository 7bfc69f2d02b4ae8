import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/accounts/apiKey.js';
import { KEYED_ONLY_FIELDS, lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer;
let key: string;

beforeAll(async () => {
  harness = await startProfiles();
  ({ key } = await harness.issueKey());
});
afterAll(() => harness.close());

const expectAnonymous = (body: Record<string, unknown>) => {
  for (const field of KEYED_ONLY_FIELDS) expect(body).not.toHaveProperty(field);
};

describe('a request without a valid key is answered as anonymous', () => {
  it('when no Authorization header is sent', async () => {
    const { status, body } = await lookup(harness, 'alex');
    expect(status).toBe(200);
    expectAnonymous(body);
  });

  it.each([
    ['a non-bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a bearer without a token', 'Bearer'],
    ['a token that is not shaped like a key', 'Bearer not-a-key'],
    ['a well-formed key nobody issued', `Bearer ${issueApiKey().key}`],
  ])('when the header carries %s', async (_what, authorization) => {
    const { status, body } = await lookup(harness, 'alex', { headers: { Authorization: authorization } });
    expect(status).toBe(200);
    expectAnonymous(body);
  });

  it('when the key was revoked elsewhere (the admin command line), within API_KEY_CACHE_MS', async () => {
    const revocable = await harness.issueKey('revoker@example.com');
    expect((await lookup(harness, 'alex', { key: revocable.key })).body).toHaveProperty('links');
    // Straight in the store, as another process does: this instance hears nothing of it.
    expect(await harness.store.revokeApiKey(revocable.keyId)).toBe('revoked');
    const revokedAt = Date.now();
    let answer = await lookup(harness, 'alex', { key: revocable.key });
    while ('links' in answer.body && Date.now() - revokedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await lookup(harness, 'alex', { key: revocable.key });
    }
    expect(answer.status).toBe(200);
    expectAnonymous(answer.body);
    // The bound: the instance's key cache (1 s by default), plus a request's time on a busy machine.
    expect(Date.now() - revokedAt).toBeLessThan(harness.server.config.profiles.apiKeyCacheMs + 1000);
  });
});

/** The seed's Profile fields not marked (auth), and the profile card's look: exactly what an anonymous answer carries. */
const PUBLIC_FIELDS = [
  'hash',
  'display_name',
  'profile_url',
  'avatar_url',
  'avatar_alt_text',
  'location',
  'description',
  'job_title',
  'company',
  'verified_accounts',
  'pronunciation',
  'pronouns',
  'header_image',
  'background_color',
];

describe('anonymous answers', () => {
  it.each(['alex', 'sam', 'quiet'])(
    "of %s carry exactly the seed's public fields and the card's header and background",
    async (slug) => {
      const { body } = await lookup(harness, slug);
      expect(Object.keys(body).sort()).toEqual([...PUBLIC_FIELDS].sort());
    },
  );

  it('list at most 4 verified accounts, hidden ones never', async () => {
    const { body } = await lookup(harness, 'alex');
    const accounts = body.verified_accounts as { service_type: string; is_hidden: boolean }[];
    expect(accounts.map((a) => a.service_type)).toEqual(['github', 'mastodon', 'linkedin', 'flickr']);
    expect(accounts.every((a) => a.is_hidden === false)).toBe(true);
  });

  it('carry every public field of a full profile', async () => {
    const { body } = await lookup(harness, 'alex');
    expect(body).toMatchObject({
      display_name: 'Alex Morgan',
      avatar_alt_text: 'Alex Morgan smiling beside a large dog.',
      location: 'New York, USA',
      job_title: 'Landscape Architect',
      company: 'ACME Corp',
      pronunciation: 'Al-ex Mor-gan',
      pronouns: 'she/they',
      header_image: "url('https://images.example.com/alex/header.jpg') no-repeat 50% 1% / 100%",
      background_color: 'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
    });
  });

  it('carry an empty header and background as "" when the owner set none', async () => {
    const { body } = await lookup(harness, 'sam');
    expect(body).toMatchObject({ header_image: '', background_color: '' });
  });
});

describe('a valid key gets the full profile', () => {
  it('with links, payments, gallery, timestamps and the verified-account count', async () => {
    const { status, body } = await lookup(harness, 'alex', { key });
    expect(status).toBe(200);
    expect(body.links).toEqual([
      { label: 'Personal Website', url: 'https://alex.example.com' },
      { label: 'Portfolio', url: 'https://alex.example.com/portfolio' },
    ]);
    expect(body.payments).toEqual({
      links: [
        { label: 'Tip jar', url: 'https://pay.example.com/alex' },
        { label: 'Sponsor', url: 'https://sponsor.example.com/alexmorgan' },
      ],
      crypto_wallets: [
        { label: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
        { label: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      ],
    });
    expect(body.gallery).toEqual([
      { url: 'https://images.example.com/alex/1.jpg', alt_text: 'A sunset over the bay' },
      { url: 'https://images.example.com/alex/2.jpg', alt_text: 'A walled garden in spring' },
      { url: 'https://images.example.com/alex/3.jpg' },
    ]);
    expect(body.last_profile_edit).toBe('2026-10-01T12:00:00Z');
    expect(body.registration_date).toBe('2019-04-12');
  });

  it("with the real service's personal details: names, time zone, languages, interests, organization flag, header and background", async () => {
    const { body } = await lookup(harness, 'alex', { key });
    expect(body).toMatchObject({
      first_name: 'Alex',
      last_name: 'Morgan',
      timezone: 'America/New_York',
      is_organization: false,
      header_image: "url('https://images.example.com/alex/header.jpg') no-repeat 50% 1% / 100%",
      background_color: 'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
    });
    expect(body.languages).toEqual([
      { code: 'en', name: 'English', is_primary: true, order: 1 },
      { code: 'es', name: 'Spanish', is_primary: false, order: 2 },
    ]);
    expect(body.interests).toEqual([
      { id: 1, name: 'photography', slug: '1-photography' },
      { id: 27, name: 'Landscape Architecture', slug: '27-landscape-architecture' },
    ]);
  });

  it('carries every seed field and every personal detail, empty ones as "", [] or false', async () => {
    const { body } = await lookup(harness, 'sam', { key });
    expect(Object.keys(body).sort()).toEqual(
      [...PUBLIC_FIELDS, ...KEYED_ONLY_FIELDS.filter((f) => f !== 'contact_info')].sort(),
    );
    expect(body).toMatchObject({
      first_name: '',
      last_name: '',
      timezone: '',
      languages: [],
      interests: [],
      is_organization: false,
      header_image: '',
      background_color: '',
    });
  });

  it('counts hidden verified accounts without listing them', async () => {
    const { body } = await lookup(harness, 'alex', { key });
    const accounts = body.verified_accounts as { service_type: string }[];
    expect(accounts.map((a) => a.service_type)).toEqual(['github', 'mastodon', 'linkedin', 'flickr', 'wordpress']);
    expect(body.number_verified_accounts).toBe(6);
  });

  it('shows only the contact details the owner made public', async () => {
    const { body } = await lookup(harness, 'alex', { key });
    expect(body.contact_info).toEqual({
      work_phone: '+1 212 555 0101',
      email: 'hello@alex.example.com',
      contact_form: 'https://alex.example.com/contact',
      calendar: 'https://alex.example.com/calendar',
    });
  });

  it('omits contact info and empties payments when the owner made neither public', async () => {
    const { status, body } = await lookup(harness, 'quiet', { key });
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('contact_info');
    expect(body.payments).toEqual({ links: [], crypto_wallets: [] });
    expect(body.links).toEqual([{ label: 'Blog', url: 'https://quiet.example.com' }]);
  });

  it('answers null timestamps and empty lists for a profile with nothing optional set', async () => {
    const { body } = await lookup(harness, 'sam', { key });
    expect(body).toMatchObject({
      links: [],
      payments: { links: [], crypto_wallets: [] },
      gallery: [],
      number_verified_accounts: 0,
      last_profile_edit: null,
      registration_date: null,
    });
    expect(body).not.toHaveProperty('contact_info');
  });
});
