import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getVerifiedAccountServices } from '../../../generated/profiles/sdk.gen.js';
import { VERIFIED_ACCOUNT_SERVICES } from '../../../src/services/profiles/domain/verifiedAccountServices.js';
import { validateProfileRecords } from '../../../src/services/profiles/import/readProfileImport.js';
import { realAnswerProblems } from '../../support/realProfileSchema.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * `GET /v3/verified-accounts/services`: the services a profile can verify
 * an account on, with labels and icons; the same list every profile's
 * `verified_accounts` take their labels and icons from. No key; a
 * per-address limit of its own. Every answer goes through the
 * contract-checking fetch.
 */
let harness: ProfilesTestServer;
let key: string;
beforeAll(async () => {
  harness = await startProfiles({ RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES: '4', RATE_LIMIT_ANONYMOUS: '50' });
  ({ key } = await harness.issueKey());
});
afterAll(() => harness.close());

type Service = { id: string; label: string; icon: string };

async function services(headers: Record<string, string> = {}) {
  const result = await getVerifiedAccountServices({ client: harness.client, headers });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as { services: Service[] },
    headers: result.response.headers,
  };
}

describe('the list of services', () => {
  let first: Awaited<ReturnType<typeof services>>;
  beforeAll(async () => {
    first = await services();
  });

  it("names every service with its id, label and icon, in the real answer's shape (plus the icon)", () => {
    expect(first.status).toBe(200);
    expect(first.body.services.map((service) => service.id)).toEqual(
      expect.arrayContaining(['github', 'twitter', 'tumblr', 'mastodon']),
    );
    expect(first.body.services.find((service) => service.id === 'github')?.label).toBe('GitHub');
    expect(new Set(first.body.services.map((service) => service.id)).size).toBe(first.body.services.length);
    expect(realAnswerProblems('/verified-accounts/services', 'get', 200, first.body)).toBeNull();
    expect(
      realAnswerProblems('/verified-accounts/services', 'get', 200, {
        services: [{ id: 'x', label: 'X', url: 'https://x' }],
      }),
    ).toMatch(/additional/);
  });

  it('gives each service an icon that is an SVG image needing no other host', () => {
    for (const service of first.body.services) {
      const [, data] = /^data:image\/svg\+xml;base64,(.+)$/.exec(service.icon) ?? [];
      expect(Buffer.from(data!, 'base64').toString('utf8')).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/,
      );
    }
  });

  it('is public and cacheable, with an ETag that answers 304', async () => {
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const again = await services({ 'If-None-Match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
  });
});

describe('profiles draw their verified accounts from the list', () => {
  it.each(['anonymous', 'keyed'] as const)(
    "the %s answer shows each account with its service's label and icon",
    async (audience) => {
      const { body } = await lookup(harness, 'alex', audience === 'keyed' ? { key } : {});
      const byId = new Map(VERIFIED_ACCOUNT_SERVICES.map((service) => [service.id, service]));
      const accounts = body.verified_accounts as {
        service_type: string;
        service_label: string;
        service_icon: string;
      }[];
      expect(accounts.length).toBeGreaterThan(0);
      for (const account of accounts) {
        expect(account.service_label).toBe(byId.get(account.service_type)?.label);
        expect(account.service_icon).toBe(byId.get(account.service_type)?.icon);
      }
    },
  );

  it('an import may name only a service of the list, and keeps no label or icon of its own', () => {
    const record = { email: 'v@example.com', slug: 'v', display_name: 'V' };
    expect(() =>
      validateProfileRecords(
        [{ ...record, verified_accounts: [{ service_type: 'myspace', url: 'https://myspace.example/v' }] }],
        new Date(),
      ),
    ).toThrow(
      /record 1, field verified_accounts\[0\]\.service_type: must be a service of GET \/v3\/verified-accounts\/services \(bluesky, /,
    );
    const [owned] = validateProfileRecords(
      [
        {
          ...record,
          verified_accounts: [
            {
              service_type: 'github',
              service_label: 'Git Hub!',
              service_icon: 'https://icons.example.com/gh.svg',
              url: 'https://github.com/v',
            },
          ],
        },
      ],
      new Date(),
    );
    const github = VERIFIED_ACCOUNT_SERVICES.find((service) => service.id === 'github')!;
    expect(owned!.profile.verifiedAccounts).toEqual([
      {
        serviceType: 'github',
        serviceLabel: github.label,
        serviceIcon: github.icon,
        url: 'https://github.com/v',
        username: 'v',
        hidden: false,
      },
    ]);
  });
});

describe('limits', () => {
  it("counts per client address apart from lookups, and answers 429 in the service's format over it", async () => {
    const fresh = await startProfiles({ RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES: '2' });
    try {
      const get = () => getVerifiedAccountServices({ client: fresh.client });
      const [one, two] = [await get(), await get()];
      const lookedUp = await lookup(fresh, 'alex');
      const three = await get();
      expect([one, two, three].map((answer) => answer.response.status)).toEqual([200, 200, 429]);
      expect([one, two].map((answer) => answer.response.headers.get('x-ratelimit-remaining'))).toEqual(['1', '0']);
      expect(lookedUp.headers.get('x-ratelimit-remaining')).toBe('99');
      expect(three.error).toEqual({ error: 'Rate limit exceeded', code: 'rate_limit_exceeded' });
      expect(Number(three.response.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
