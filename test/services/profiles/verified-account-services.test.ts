import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getVerifiedAccountServices } from '../../../generated/profiles/sdk.gen.js';
import { VERIFIED_ACCOUNT_SERVICES } from '../../../src/services/profiles/domain/verifiedAccountServices.js';
import { validateProfileRecords } from '../../../src/services/profiles/import/readProfileImport.js';
import { realAnswerProblems } from '../../support/realProfileSchema.js';
import { decodeImage, lookup, startProfiles, type ProfilesTestServer } from './support.js';

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

  it("links each service's icon at this deployment's /icons/<id>.svg, as the real service links its own", () => {
    for (const service of first.body.services) {
      expect(service.icon).toBe(`${harness.server.config.publicUrl}/icons/${service.id}.svg`);
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
        expect(account.service_icon).toBe(`${harness.server.config.publicUrl}/icons/${account.service_type}.svg`);
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
        url: 'https://github.com/v',
        username: 'v',
        hidden: false,
      },
    ]);
  });
});

/** `GET /icons/<name>` through the contract-checking fetch: status, headers and the body's bytes. */
async function icon(name: string, init: RequestInit = {}, on: ProfilesTestServer = harness) {
  const response = await on.call(`${on.server.url}/icons/${name}`, init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("the services' icons", () => {
  it('serves every icon the list links, an SVG badge in the service colour that draws', async () => {
    const { body } = await services();
    for (const service of body.services) {
      const answer = await icon(new URL(service.icon).pathname.split('/').pop()!);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/svg+xml');
      const text = answer.bytes.toString('utf8');
      expect(text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s);
      expect(text).toContain(`<title>${service.label}</title>`);
      expect(text).not.toMatch(/<script|\son\w+=|href=/i);
      const drawn = await decodeImage(answer.bytes);
      expect([drawn.width, drawn.height]).toEqual([32, 32]);
      // The badge's colour at its edge, opaque: the list's colour for the service.
      const colour = VERIFIED_ACCOUNT_SERVICES.find((entry) => entry.id === service.id)!.colour;
      const [r, g, b, a] = drawn.pixel(16, 2);
      expect(`#${[r, g, b].map((part) => part.toString(16).padStart(2, '0')).join('')}`).toBe(colour);
      expect(a).toBe(255);
    }
  });

  it('lets an icon opened on its own run and load nothing, and any origin load it', async () => {
    const answer = await icon('github.svg', { headers: { Origin: 'https://elsewhere.example' } });
    expect(answer.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'",
    );
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('vary') ?? '').not.toMatch(/authorization/i);
  });

  it('is cached publicly for a day, with a strong ETag that answers 304, and answers HEAD without a body', async () => {
    const first = await icon('mastodon.svg');
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await icon('mastodon.svg', { headers: { 'If-None-Match': etag } });
    expect([again.status, again.bytes.length, again.headers.get('etag')]).toEqual([304, 0, etag]);
    expect((await icon('github.svg', { headers: { 'If-None-Match': etag } })).status).toBe(200);
    const head = await icon('mastodon.svg', { method: 'HEAD' });
    expect([head.status, head.bytes.length, head.headers.get('etag')]).toEqual([200, 0, etag]);
  });

  it.each([
    ['an unknown service', 'myspace.svg'],
    ['a service without its .svg', 'github'],
    ['another extension', 'github.png'],
    ['an upper-case name', 'GitHub.svg'],
    ['a path outside the icons', '..%2Fopenapi'],
  ])("answers %s 404 in the service's error format, not kept by caches", async (_what, name) => {
    const answer = await icon(name);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual({ error: 'Icon not found', code: 'not_found' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it("answers a name over 64 characters 400, and a write 405, in the service's error format", async () => {
    const long = await icon(`${'a'.repeat(61)}.svg`);
    expect(long.status).toBe(400);
    expect(JSON.parse(long.bytes.toString('utf8'))).toMatchObject({ code: 'invalid_request' });
    const post = await icon('github.svg', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(JSON.parse(post.bytes.toString('utf8'))).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('limits', () => {
  it("counts per client address apart from lookups, and answers 429 in the service's format over it", async () => {
    const fresh = await startProfiles({ RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES: '2', RATE_LIMIT_ICONS: '2' });
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

      // Icons count apart from the list and from lookups, with a limit of their own.
      const icons = [await icon('github.svg', {}, fresh), await icon('tumblr.svg', {}, fresh)];
      const over = await icon('github.svg', {}, fresh);
      expect([...icons, over].map((answer) => answer.status)).toEqual([200, 200, 429]);
      expect(icons.map((answer) => answer.headers.get('x-ratelimit-limit'))).toEqual(['2', '2']);
      expect(JSON.parse(over.bytes.toString('utf8'))).toEqual({
        error: 'Rate limit exceeded',
        code: 'rate_limit_exceeded',
      });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
