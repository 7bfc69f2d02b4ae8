import { afterEach, describe, expect, it } from 'vitest';
import { toProfileContent } from '../../../src/services/profiles/import/toProfileContent.js';
import { escapeHtml } from '../../../src/services/profiles/http/profilePageHtml.js';
import type { AnonymousProfile } from '../../../generated/profiles/types.gen.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async (env: Record<string, string> = {}) => (harness = await startProfiles(env));

/** The page at a path, as a browser asks for it. */
const page = async (server: ProfilesTestServer, path: string, init: RequestInit = {}) => {
  const response = await server.call(`${server.server.url}${path}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/** The `content` of a `<meta property|name="…">` tag. */
const meta = (html: string, name: string) =>
  html.match(new RegExp(`<meta (?:property|name)="${name.replace('.', '\\.')}" content="([^"]*)">`))?.[1];

const HOSTILE = `<script>alert("x")</script> & 'quoted'`;

describe('a profile page at profile_url', () => {
  it('shows the public fields of the anonymous lookup, with Open Graph tags and a canonical link', async () => {
    const server = await start();
    const profile = (await lookup(server, 'alex')).body as unknown as AnonymousProfile;
    // `<PUBLIC_URL>/<slug>` (unset: this host at the configured port), a path this server answers.
    expect(profile.profile_url).toBe(`${server.server.config.publicUrl}/alex`);
    const answer = await page(server, new URL(profile.profile_url).pathname);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = answer.text;
    for (const field of [
      profile.display_name,
      profile.location,
      profile.description,
      profile.job_title,
      profile.company,
      profile.pronouns,
      profile.pronunciation,
    ]) {
      expect(field).not.toBe('');
      expect(html).toContain(escapeHtml(field));
    }
    expect(html).toContain(`src="${profile.avatar_url}?s=256"`);
    expect(new URL(profile.avatar_url).pathname).toBe(`/avatar/${profile.hash}`);
    // The anonymous lookup's verified accounts, at most 4, and no hidden one.
    expect(profile.verified_accounts.length).toBeGreaterThan(0);
    expect(profile.verified_accounts.length).toBeLessThanOrEqual(4);
    const linked = [
      ...html.matchAll(
        /<li><a href="([^"]*)" rel="me nofollow noopener"><img src="([^"]*)" width="16" height="16" alt="">([^<]*)<\/a><\/li>/g,
      ),
    ];
    expect(linked.map(([, href, icon, label]) => ({ url: href, icon, label }))).toEqual(
      profile.verified_accounts.map((account) => ({
        url: escapeHtml(account.url),
        icon: `${new URL(profile.profile_url).origin}/icons/${account.service_type}.svg`,
        label: escapeHtml(account.service_label),
      })),
    );

    expect(meta(html, 'og:type')).toBe('profile');
    expect(meta(html, 'og:title')).toBe(escapeHtml(profile.display_name));
    expect(meta(html, 'og:description')).toBe(escapeHtml(profile.description));
    expect(meta(html, 'og:url')).toBe(profile.profile_url);
    expect(meta(html, 'og:image')).toBe(`${profile.avatar_url}?s=256`);
    expect(html).toContain(`<link rel="canonical" href="${profile.profile_url}">`);
    expect(html).not.toContain('<script');
  });

  it('shows at most 4 verified accounts, as the anonymous lookup does', async () => {
    const server = await start();
    await server.store.saveProfiles([
      {
        email: 'many@example.com',
        profile: toProfileContent(
          {
            email: 'many@example.com',
            slug: 'many',
            display_name: 'Many accounts',
            verified_accounts: ['github', 'mastodon', 'tumblr', 'wordpress', 'twitter', 'instagram'].map((type) => ({
              service_type: type,
              url: `https://example.com/${type}`,
            })),
          },
          new Date(),
        ),
        avatar: null,
      },
    ]);
    const answer = await page(server, '/many');
    expect(answer.status).toBe(200);
    expect([...answer.text.matchAll(/rel="me nofollow noopener"/g)]).toHaveLength(4);
    expect((await lookup(server, 'many')).body.verified_accounts).toHaveLength(4);
  });

  it('escapes every field: markup and quotes in a profile are text, never tags or attributes', async () => {
    const server = await start();
    await server.store.saveProfiles([
      {
        email: 'hostile@example.com',
        profile: toProfileContent(
          {
            email: 'hostile@example.com',
            slug: 'hostile',
            display_name: HOSTILE,
            avatar_alt_text: `"><img src=x onerror=alert(1)>`,
            location: HOSTILE,
            description: HOSTILE,
            job_title: HOSTILE,
            company: HOSTILE,
            pronouns: HOSTILE,
            pronunciation: HOSTILE,
            verified_accounts: [{ service_type: 'github', url: `https://github.com/"><script>x</script>` }],
          },
          new Date(),
        ),
        avatar: null,
      },
    ]);
    const answer = await page(server, '/hostile');
    expect(answer.status).toBe(200);
    const html = answer.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain(`"x"`);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    expect(meta(html, 'og:title')).toBe(escapeHtml(HOSTILE));
    expect(html).toContain(`alt="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"`);
    expect(html).toContain('href="https://github.com/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });

  it('has a strict Content-Security-Policy: no script, its one style by hash, no framing', async () => {
    const server = await start();
    const answer = await page(server, '/alex');
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    // The one inline style is the one the policy's hash names.
    const style = answer.text.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
    const { createHash } = await import('node:crypto');
    expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('names PUBLIC_URL in profile_url, og:url and the canonical link', async () => {
    const server = await start({ PUBLIC_URL: 'https://profiles.example.com' });
    const profile = (await lookup(server, 'alex')).body;
    expect(profile.profile_url).toBe('https://profiles.example.com/alex');
    const html = (await page(server, '/alex')).text;
    expect(meta(html, 'og:url')).toBe('https://profiles.example.com/alex');
    expect(meta(html, 'og:image')).toBe(`https://profiles.example.com/avatar/${profile.hash}?s=256`);
    expect(html).toContain('<link rel="canonical" href="https://profiles.example.com/alex">');
  });

  it('answers an email hash too, with the slug URL as its canonical link', async () => {
    const server = await start();
    const profile = (await lookup(server, 'alex')).body;
    const answer = await page(server, `/${profile.hash}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`<link rel="canonical" href="${profile.profile_url}">`);
  });

  it('answers HEAD with the headers of GET and no body, and 304 on a matching ETag', async () => {
    const server = await start();
    const got = await page(server, '/alex');
    const head = await page(server, '/alex', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const etag = got.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(got.text)));
    expect(got.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);

    const again = await page(server, '/alex', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await page(server, '/alex', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('answers an HTML 404 page for a slug that names no profile', async () => {
    const server = await start();
    for (const path of ['/nobody-here', `/${'a'.repeat(64)}`]) {
      const answer = await page(server, path);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('Profile not found');
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'none'");
    }
    // A path that cannot be a slug is the platform's own 404, as before.
    const other = await page(server, '/Not%20a%20slug!');
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text)).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('counts on the anonymous lookups’ per-address limit, and answers 429 with the limit headers', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '3' });
    const first = await page(server, '/alex');
    const second = await lookup(server, 'alex');
    const third = await page(server, '/nobody-here');
    const fourth = await page(server, '/alex');
    const fifth = await lookup(server, 'sam');

    expect([first.status, second.status, third.status, fourth.status, fifth.status]).toEqual([200, 200, 404, 429, 429]);
    expect([first, second, third].map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual([
      '2',
      '1',
      '0',
    ]);
    for (const answer of [first, third, fourth]) expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fourth.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(fourth.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(fourth.text).toContain('Too many requests');
    expect(fourth.text).not.toContain('Alex');
  });

  it('leaves every other route as it was', async () => {
    const server = await start({ SERVICES: 'profiles,developer,publishing' });
    const developers = await page(server, '/developers');
    expect(developers.headers.get('content-security-policy')).toContain('/developers/app.js');
    expect((await page(server, '/healthz')).headers.get('content-type')).not.toContain('text/html');
    expect((await page(server, '/v3')).text).not.toContain('Profile not found');
    expect((await page(server, '/avatar')).text).not.toContain('Profile not found');
    expect((await page(server, '/docs')).text).not.toContain('Profile not found');
    expect((await page(server, '/files')).text).not.toContain('Profile not found');
    expect((await page(server, '/oauth2')).text).not.toContain('Profile not found');
    expect((await page(server, '/metrics')).text).not.toContain('Profile not found');
    expect((await page(server, '/rest')).text).not.toContain('Profile not found');
    // POST is no page.
    expect((await page(server, '/alex', { method: 'POST' })).headers.get('content-type')).not.toContain('text/html');
  });

  it('answers a store failure as the lookup does: nothing internal in it', async () => {
    const server = await start({ PROFILE_LOOKUP_CACHE_MS: '0' });
    expect((await page(server, '/alex')).status).toBe(200);
    await server.server.built.db.destroy();
    const failed = await page(server, '/alex');
    const lookedUp = await lookup(server, 'alex');
    expect(failed.status).toBe(lookedUp.status);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.text).not.toMatch(/destroyed|sqlite|postgres|kysely|stack|\.ts/i);
    expect(failed.text).not.toContain('Alex');
  });
});
