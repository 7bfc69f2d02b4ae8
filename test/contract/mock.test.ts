import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from '../../scripts/fresh.mjs';
import { projectRoot } from '../../scripts/tools.js';
import { serviceIcon } from '../../src/services/profiles/http/serviceIcons.js';
import { callMock, startMock, type RunningMock } from '../support/mock.js';

/**
 * `npm run mock` serves every contract with Prism on production's paths at
 * one origin: each documented example comes back, every valid answer is
 * clean (no `sl-violations`), avatars are real PNG images, the contracts'
 * endpoint rules hold as on the server, and an invalid request is refused
 * before any mock answer.
 */

let mock: RunningMock;
let origin: string;

beforeAll(async () => {
  mock = await startMock();
  ({ origin } = mock);
}, 60_000);

afterAll(() => mock?.stop());

/** A call to the mock, its answer checked against the contracts (production's path: prefix + path) and free of Prism's violation report. */
const viaMock = (prefix: string, path: string, init: RequestInit = {}) => callMock(origin, prefix, path, init);

describe('what it starts from', () => {
  it('is its build in dist/mock, up to date: Prism in one file without faker, and its operations prepared', () => {
    expect(isFresh(BUILD_STAMPS.mock, BUILD_INPUTS.mock)).toBe(true);
    const prism = readFileSync(join(projectRoot, 'dist/mock/prism.cjs'), 'utf8');
    expect(prism).toContain('createServer');
    // faker (every locale) is required only when a dynamic answer first needs it.
    expect(prism).not.toMatch(/faker[\\/]dist[\\/]cjs[\\/]locales/);
    const operations = JSON.parse(readFileSync(join(projectRoot, 'dist/mock/operations.json'), 'utf8')) as {
      path: string;
    }[];
    expect(operations.map((operation) => operation.path)).toContain('/v3/profiles/{profileIdentifier}');
  });
});

describe('the OAuth authorization server (openapi/oauth.yaml)', () => {
  it('answers from its contract: the metadata, example tokens to a well-formed form body, a documented error when asked for', async () => {
    const metadata = await viaMock('', '/.well-known/oauth-authorization-server/oauth2');
    expect(metadata.status).toBe(200);
    const form = (fields: Record<string, string>): RequestInit => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const tokens = await viaMock(
      '/oauth2',
      '/token',
      form({ grant_type: 'refresh_token', client_id: 'any-app', refresh_token: 'any' }),
    );
    expect(tokens.status).toBe(200);
    expect(tokens.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    const asked = form({ grant_type: 'refresh_token', client_id: 'any-app', refresh_token: 'any' });
    const refused = await viaMock('/oauth2', '/token', {
      ...asked,
      headers: { ...(asked.headers as Record<string, string>), Prefer: 'code=400' },
    });
    expect([refused.status, refused.json().error]).toEqual([400, 'invalid_grant']);
  });
});

describe('one origin, production paths', () => {
  it('answers every service on its production prefix, at one port', async () => {
    for (const path of ['/v3/profiles/alex', '/rest/v1.1/sites/1/posts/108', '/developer/v1/applications']) {
      const res = await fetch(`${origin}${path}`, { headers: { Cookie: 'dev_session=demo' } });
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
    }
  });

  it('answers the rate-limit and cache headers with realistic figures', async () => {
    const res = await viaMock('/v3', '/profiles/alex');
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(1_700_000_000);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
  });

  it('answers an avatar as a real PNG image', async () => {
    const res = await viaMock('', '/avatar/6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110?s=80');
    expect(res.status).toBe(200);
    expect(res.body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const { format, width } = await sharp(res.body).metadata();
    expect(format).toBe('png');
    expect(width).toBe(80);
    expect(Number(res.headers.get('content-length'))).toBe(res.body.length);
  });

  it("applies publishing's endpoint layer as the server does", async () => {
    const noRoute = await fetch(`${origin}/rest/v1.1/sites/1/posts/abc/restore`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo' },
    });
    expect(noRoute.status).toBe(404);
    expect(await noRoute.text()).toBe('');
    expect(noRoute.headers.get('content-type')).toMatch(/^text\/plain/);
    const slash = await viaMock('/rest/v1.1', '/sites/1/posts/108/', { headers: { Prefer: 'example=anonymous' } });
    expect(slash.status).toBe(200);
    const options = await fetch(`${origin}/rest/v1.1/sites/1/posts/108`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
  });

  it('answers CORS as the server does by default: profiles to any origin, publishing and the developer API to none', async () => {
    const from = { Origin: 'http://localhost:3000' };
    const preflight = await fetch(`${origin}/rest/v1.1/sites/1/posts/101/restore`, {
      method: 'OPTIONS',
      headers: { ...from, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // The endpoint layer's 404 (and 400) carry `*` whatever the origin, as on the server.
    const noRoute = await fetch(`${origin}/rest/v1.1/sites/1/posts/abc/restore`, { method: 'POST', headers: from });
    expect(noRoute.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (await fetch(`${origin}/rest/v1.1/sites/1/posts/108`, { headers: from })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
    expect(
      (await fetch(`${origin}/v3/profiles/alex`, { headers: from })).headers.get('access-control-allow-origin'),
    ).toBe('*');
    const profilesPreflight = await fetch(`${origin}/v3/profiles/alex`, {
      method: 'OPTIONS',
      headers: { ...from, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect([profilesPreflight.status, profilesPreflight.headers.get('access-control-allow-headers')]).toEqual([
      204,
      expect.stringContaining('Authorization'),
    ]);
    const developer = await fetch(`${origin}/developer/v1/session`, {
      method: 'OPTIONS',
      headers: { ...from, 'Access-Control-Request-Method': 'POST' },
    });
    expect([developer.status, developer.headers.get('access-control-allow-origin')]).toEqual([405, null]);
  });

  it('with MOCK_CORS=open lets a front end on any origin call every service, credentials included', async () => {
    const open = await startMock({ MOCK_CORS: 'open' });
    try {
      const from = { Origin: 'http://localhost:3000' };
      for (const [path, method] of [
        ['/rest/v1.1/sites/1/posts/101/restore', 'POST'],
        ['/developer/v1/session', 'POST'],
        ['/v3/profiles/alex', 'GET'],
      ] as const) {
        const preflight = await fetch(`${open.origin}${path}`, {
          method: 'OPTIONS',
          headers: {
            ...from,
            'Access-Control-Request-Method': method,
            'Access-Control-Request-Headers': 'authorization',
          },
        });
        expect(preflight.headers.get('access-control-allow-origin'), path).toBe(from.Origin);
        expect(preflight.headers.get('access-control-allow-credentials'), path).toBe('true');
        expect(preflight.headers.get('access-control-allow-methods'), path).toContain(method);
        expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase(), path).toContain('authorization');
      }
      const read = await fetch(`${open.origin}/rest/v1.1/sites/1/posts/108`, { headers: from });
      expect(read.headers.get('access-control-allow-origin')).toBe(from.Origin);
    } finally {
      open.stop();
    }
  });
});

describe('what the server answers as a function of the request', () => {
  const ALEX = '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110';

  it('gives every answer an X-Request-Id, keeping a well-formed one the request brings', async () => {
    const fresh = await fetch(`${origin}/v3/profiles/alex`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${origin}/rest/v1.1/sites/1/posts/108`, { headers: { 'X-Request-Id': 'trace-42' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42');
    expect((await fetch(`${origin}/nowhere`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers live rate-limit figures: the limit of the settings, the window ending an hour from now, none left on a 429', async () => {
    const before = Math.floor(Date.now() / 1000);
    const anonymous = await fetch(`${origin}/v3/profiles/alex`);
    const reset = Number(anonymous.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(before + 3600);
    expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect([
      anonymous.headers.get('x-ratelimit-limit'),
      anonymous.headers.get('x-ratelimit-remaining'),
      anonymous.headers.get('cache-control'),
    ]).toEqual(['100', '99', 'public, max-age=300']);
    const keyed = await fetch(`${origin}/v3/profiles/alex`, {
      headers: { Authorization: 'Bearer any', Prefer: 'example=authenticated' },
    });
    expect([
      keyed.headers.get('x-ratelimit-limit'),
      keyed.headers.get('x-ratelimit-remaining'),
      keyed.headers.get('cache-control'),
    ]).toEqual(['1000', '999', 'private, no-store']);
    const limited = await fetch(`${origin}/v3/profiles/alex`, { headers: { Prefer: 'code=429' } });
    expect([limited.status, limited.headers.get('x-ratelimit-remaining')]).toEqual([429, '0']);
  });

  it("answers 304 to an If-None-Match that names the answer's ETag", async () => {
    const first = await fetch(`${origin}/v3/profiles/alex`);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${origin}/v3/profiles/alex`, { headers: { 'If-None-Match': etag } });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
    expect((await fetch(`${origin}/v3/profiles/alex`, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('draws the avatar at the size asked', async () => {
    for (const [query, size] of [
      ['s=33', 33],
      ['size=120', 120],
      ['', 80],
    ] as const) {
      const res = await fetch(`${origin}/avatar/${ALEX}?${query}`);
      const { width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([width, height], query).toEqual([size, size]);
    }
  });

  it("answers the API's own error for a path no operation serves, a method it does not allow and a bad parameter", async () => {
    const unknown = await fetch(`${origin}/v3/nothing-here`);
    expect([unknown.status, unknown.headers.get('content-type'), await unknown.json()]).toEqual([
      404,
      'application/json; charset=utf-8',
      { error: 'Not found', code: 'not_found' },
    ]);
    const publishing = await fetch(`${origin}/rest/v1.1/nothing-here`);
    expect([publishing.status, publishing.headers.get('content-type'), await publishing.text()]).toEqual([
      404,
      'text/plain; charset=utf-8',
      '',
    ]);
    const method = await fetch(`${origin}/developer/v1/session`, { method: 'PUT' });
    expect([method.status, method.headers.get('allow'), (await method.json()).code]).toEqual([
      405,
      'GET, POST, DELETE, HEAD',
      'method_not_allowed',
    ]);
    const bad = await fetch(`${origin}/avatar/${ALEX}?s=abc`);
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: 'Invalid parameter s: must be integer', code: 'invalid_request' },
    ]);
  });

  it("presents publishing's answers by their options, with the server's presenter: fields, http_envelope, pretty, callback", async () => {
    const post = '/rest/v1.1/sites/1/posts/108';
    expect(Object.keys(await (await fetch(`${origin}${post}?fields=ID,status`)).json())).toEqual(['ID', 'status']);
    const enveloped = (await (await fetch(`${origin}${post}?http_envelope=1&fields=ID`)).json()) as {
      code: number;
      body: unknown;
    };
    expect([enveloped.code, enveloped.body]).toEqual([200, { ID: 108 }]);
    const missing = (await (
      await fetch(`${origin}${post}?http_envelope=true`, { headers: { Prefer: 'code=404, example=unknown_post' } })
    ).json()) as { code: number };
    expect(missing.code).toBe(404);
    expect(await (await fetch(`${origin}${post}?pretty=1&fields=ID`)).text()).toBe('{\n    "ID": 108\n}');
    const jsonp = await fetch(`${origin}${post}?callback=show&fields=ID`);
    expect([jsonp.headers.get('content-type'), await jsonp.text()]).toEqual([
      'application/javascript; charset=utf-8',
      '/**/show({"ID":108});',
    ]);
  });
});

describe('profiles mock', () => {
  it.each(['anonymous', 'authenticated'])('serves the %s example', async (example) => {
    const res = await viaMock('/v3', '/profiles/alex', {
      headers: { Prefer: `example=${example}`, Authorization: 'Bearer demo' },
    });
    expect(res.status).toBe(200);
    expect(res.json().display_name).toBe('Alex Morgan');
    expect('links' in res.json()).toBe(example === 'authenticated');
  });

  it.each([
    [404, 'not_found'],
    [429, 'rate_limit_exceeded'],
    [500, 'internal_error'],
  ])('serves the %i example', async (status, code) => {
    const res = await viaMock('/v3', '/profiles/alex', { headers: { Prefer: `code=${status}` } });
    expect(res.status).toBe(status);
    expect(res.json().code).toBe(code);
  });

  it('serves avatar images at the site root (the operation has a server of its own)', async () => {
    const hash = '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110';
    const image = await viaMock('', `/avatar/${hash}?s=80&d=identicon`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);
    const missing = await viaMock('', `/avatar/${hash}?d=404`, { headers: { Prefer: 'code=404' } });
    expect(missing.status).toBe(404);
    expect(missing.json().code).toBe('not_found');
    expect((await viaMock('', `/avatar/${hash}?s=5000`)).status).toBe(400);
  });

  it("serves the verified-account services' icons the answers link, as the server draws them, at its own origin", async () => {
    const profile = await viaMock('/v3', '/profiles/alex');
    const services = await viaMock('/v3', '/verified-accounts/services');
    const links = [
      ...(profile.json().verified_accounts as { service_icon: string }[]).map((account) => account.service_icon),
      ...(services.json().services as { icon: string }[]).map((service) => service.icon),
    ];
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      expect(link.startsWith(`${origin}/icons/`), link).toBe(true);
      const icon = await viaMock('', link.slice(origin.length));
      const drawn = serviceIcon(link.split('/').pop()!)!;
      expect([icon.status, icon.headers.get('content-type'), icon.headers.get('etag')], link).toEqual([
        200,
        'image/svg+xml',
        drawn.etag,
      ]);
      expect(icon.body.equals(drawn.bytes), link).toBe(true);
      expect(icon.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    const again = await viaMock('', '/icons/mastodon.svg', {
      headers: { 'If-None-Match': serviceIcon('mastodon.svg')!.etag },
    });
    expect(again.status).toBe(304);
    const unknown = await viaMock('', '/icons/myspace.svg');
    expect([unknown.status, unknown.json(), unknown.headers.get('cache-control')]).toEqual([
      404,
      { error: 'Icon not found', code: 'not_found' },
      'no-store',
    ]);
  });

  it("answers a path parameter with a malformed escape as the server does, a 400 in each service's format, and goes on", async () => {
    const answers = [
      await viaMock('/v3', '/profiles/%E0'),
      await viaMock('', '/avatar/%E0'),
      await viaMock('', '/icons/%E0.svg'),
      await viaMock('/rest/v1.1', '/sites/%E0/posts/'),
    ];
    expect(answers.map((answer) => [answer.status, answer.json()])).toEqual([
      [400, { error: 'Invalid parameter profileIdentifier: malformed percent-encoding', code: 'invalid_request' }],
      [400, { error: 'Invalid parameter hash: malformed percent-encoding', code: 'invalid_request' }],
      [400, { error: 'Invalid parameter icon: malformed percent-encoding', code: 'invalid_request' }],
      [400, { error: 'invalid_input', message: 'Invalid parameter site: malformed percent-encoding' }],
    ]);
    expect((await viaMock('/v3', '/profiles/alex')).status).toBe(200);
  });

  it('refuses an invalid request', async () => {
    const res = await viaMock('/v3', `/profiles/${'x'.repeat(200)}`);
    // Prism answers an invalid request with the contract's own 400 response.
    expect(res.status).toBe(400);
    expect(res.json().code).toBe('invalid_request');
  });
});

describe('publishing mock', () => {
  const restore = '/sites/1/posts/101/restore';
  const auth = { Authorization: 'Bearer demo' };

  it.each(['display', 'edit', 'fields'])('serves the %s example', async (example) => {
    const res = await viaMock('/rest/v1.1', restore, {
      method: 'POST',
      headers: { ...auth, Prefer: `example=${example}` },
    });
    expect(res.status).toBe(200);
    expect(res.json().ID).toBe(101);
  });

  it.each([
    [401, 'authorization_required'],
    [403, 'unauthorized'],
    [404, 'unknown_blog'],
  ])('serves the %i example', async (status, error) => {
    const res = await viaMock('/rest/v1.1', restore, {
      method: 'POST',
      headers: { ...auth, Prefer: `code=${status}` },
    });
    expect(res.status).toBe(status);
    expect(res.json().error).toBe(error);
  });

  it('serves the read operation without a token', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108', { headers: { Prefer: 'example=anonymous' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ID: 108, status: 'publish', short_URL: 'https://wp.me/p1-1K' });
  });

  it.each([
    ['/sites/1', 'site', 'ID'],
    ['/sites/1/posts/108/likes', 'likes', 'post_ID'],
    ['/sites/1/posts/108/replies', 'replies', 'site_ID'],
  ])('serves %s, a meta link, without a token', async (path, example, key) => {
    const res = await viaMock('/rest/v1.1', path, { headers: { Prefer: `example=${example}` } });
    expect(res.status).toBe(200);
    expect(res.json()).toHaveProperty(key);
  });

  it('answers an upload with its example item, and a media list with a next page handle', async () => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'a.png');
    const uploaded = await viaMock('/rest/v1.1', '/sites/1/media/new', { method: 'POST', headers: auth, body: form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.json()).toMatchObject({ media: [{ ID: 201, mime_type: 'image/jpeg' }] });
    const page = await viaMock('/rest/v1.1', '/sites/1/media?number=1', { headers: auth });
    expect(page.status).toBe(200);
    expect(page.json()).toMatchObject({ found: 2, media: [{ ID: 201 }], meta: { next_page: expect.any(String) } });
  });

  it('serves the example of whether I like a post', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108/likes/mine', {
      headers: { ...auth, Prefer: 'example=liked' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ i_like: true, like_count: 2, post_ID: 108 });
  });

  it.each([
    ['GET', '/rest/v1.2', '/sites/1/posts/', 'trash', 'found'],
    ['GET', '/rest/v1.2', '/sites/1/posts/108', 'anonymous', 'ID'],
    ['POST', '/rest/v1.2', '/sites/1/posts/new', 'saved', 'ID'],
    ['POST', '/rest/v1.2', '/sites/1/posts/108', 'saved', 'ID'],
    ['GET', '/rest/v1.1', '/sites/1/post-types', 'types', 'post_types'],
    ['GET', '/rest/v1.1', '/sites/1/categories', 'categories', 'categories'],
    ['GET', '/rest/v1.1', '/sites/1/tags', 'tags', 'tags'],
    ['POST', '/rest/v1.1', '/sites/1/categories/new', 'added', 'parent'],
    ['POST', '/rest/v1.1', '/sites/1/tags/new', 'added', 'slug'],
    ['GET', '/rest/v1.1', '/sites/1/posts/108/autosave', 'autosave', 'preview_URL'],
    ['POST', '/rest/v1.1', '/sites/1/posts/108/autosave', 'saved', 'ID'],
    ['GET', '/rest/v1.1', '/sites/1/post/108/diffs', 'diffs', 'revisions'],
  ])(
    'serves the example of %s %s%s (v1.2, post types, terms, autosave, diffs)',
    async (method, prefix, path, example, key) => {
      const body =
        method === 'POST'
          ? {
              body: JSON.stringify(
                path.endsWith('/new') && !path.includes('posts') ? { name: 'Boats' } : { title: 'Boats' },
              ),
            }
          : {};
      const res = await viaMock(prefix, path, {
        method,
        headers: {
          ...auth,
          ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
          Prefer: `example=${example}`,
        },
        ...body,
      });
      expect(res.status).toBe(200);
      expect(res.json()).toHaveProperty(key);
    },
  );

  it.each([
    ['trashed', 'trash'],
    ['deleted', 'deleted'],
  ])('serves the %s example of the trash operation', async (example, status) => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108/delete', {
      method: 'POST',
      headers: { ...auth, Prefer: `example=${example}` },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ID: 108, status });
  });

  it('answers the trash operation with the whole post by default, as the server does (FluxC reads its type)', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108/delete', { method: 'POST', headers: auth });
    expect(res.status).toBe(200);
    // FluxC `PostRestClient.deletePost` parses the answer as a post (`PostWPComRestResponse`: `getType()` and the rest).
    expect(res.json()).toMatchObject({ ID: 108, status: 'trash', type: 'post', site_ID: 1, title: expect.any(String) });
  });

  it('refuses a trash request without the required token', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108/delete', { method: 'POST' });
    expect(res.status).toBe(401);
  });

  it('refuses a request without the required token', async () => {
    const res = await viaMock('/rest/v1.1', restore, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses an invalid request', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/0/restore', { method: 'POST', headers: auth });
    expect(res.status).toBe(400);
    expect(res.json().error).toBe('invalid_input');
  });
});

describe("pages, links and images as the server does (issue 44, the front-end team's first day)", () => {
  /** Follows `meta.next_page` from the first page until a page has none, as a "load all" loop does; at most 50 pages. */
  async function loadAll(prefix: string, query: string) {
    const pages: { found: number; ids: number[]; next?: string }[] = [];
    let handle: string | undefined;
    do {
      const res = await viaMock(
        prefix,
        `/sites/1/posts/?${query}${handle === undefined ? '' : `&page_handle=${encodeURIComponent(handle)}`}`,
      );
      expect(res.status).toBe(200);
      const { found, posts, meta } = res.json() as {
        found: number;
        posts: { ID: number }[];
        meta?: { next_page?: string };
      };
      handle = meta?.next_page;
      pages.push({ found, ids: posts.map((post) => post.ID), next: handle });
    } while (handle !== undefined && pages.length < 50);
    return pages;
  }

  it.each([
    ['/rest/v1.1', 'number=1'],
    ['/rest/v1.1', 'number=2&order=ASC'],
    ['/rest/v1.2', 'number=1&order_by=title&fields=ID'],
    ['/rest/v1.2', 'number=2&order_by=ID&order=ASC&status=any,trash'],
  ])('a "load all" loop over %s/sites/1/posts/?%s ends and sees each post once', async (prefix, query) => {
    const pages = await loadAll(prefix, query);
    expect(pages.at(-1)!.next, 'the last page gives no next_page').toBeUndefined();
    const ids = pages.flatMap((page) => page.ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(pages[0]!.found);
    expect(pages.length).toBeGreaterThan(1);
    // Each page after the first counts what is left from its handle, as the server's `found` does.
    expect(pages.map((page) => page.found)).toEqual(
      pages.map((_, index) => ids.length - pages.slice(0, index).reduce((sum, page) => sum + page.ids.length, 0)),
    );
  });

  it('orders as asked, ties by ID, and gives next_page only on a first page (not on one asked for by page or offset)', async () => {
    const byDate = (await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID,date')).json() as {
      found: number;
      posts: { ID: number; date: string }[];
      meta: Record<string, unknown>;
    };
    expect(byDate.posts.map((post) => post.date)).toEqual(
      byDate.posts
        .map((post) => post.date)
        .sort()
        .reverse(),
    );
    expect(byDate.meta).not.toHaveProperty('next_page');
    const ascending = (await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID&order=ASC')).json() as {
      posts: { ID: number }[];
    };
    expect(ascending.posts.map((post) => post.ID)).toEqual(byDate.posts.map((post) => post.ID).reverse());
    const second = (await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID&number=1&page=2')).json() as {
      found: number;
      posts: { ID: number }[];
      meta: Record<string, unknown>;
    };
    expect([second.found, second.posts.map((post) => post.ID), second.meta.next_page]).toEqual([
      byDate.found,
      [byDate.posts[1]!.ID],
      undefined,
    ]);
    const offset = (await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID&number=1&offset=1')).json() as {
      posts: { ID: number }[];
      meta: Record<string, unknown>;
    };
    expect([offset.posts.map((post) => post.ID), offset.meta.next_page]).toEqual([[byDate.posts[1]!.ID], undefined]);
    // `number` read as PHP's (int): `1abc` is 1, text that is no number the default.
    expect(
      ((await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID&number=1abc')).json() as { posts: unknown[] }).posts,
    ).toHaveLength(1);
    expect(
      ((await viaMock('/rest/v1.1', '/sites/1/posts/?fields=ID&number=lots')).json() as { posts: unknown[] }).posts,
    ).toHaveLength(byDate.found);
  });

  it('writes links and avatar URLs at its own origin, and answers them: avatars as PNG images, the post and site links', async () => {
    const list = await viaMock('/rest/v1.1', '/sites/1/posts/', { headers: { Authorization: 'Bearer demo' } });
    const profile = await viaMock('/v3', '/profiles/alex');
    for (const text of [list.text, profile.text]) expect(text).not.toContain('localhost:8080');
    const { posts, meta } = list.json() as {
      posts: { author: { avatar_URL: string }; meta: { links: Record<string, string> } }[];
      meta: { links: { counts: string } };
    };
    const avatars = new Set([...posts.map((post) => post.author.avatar_URL), profile.json().avatar_url as string]);
    for (const avatar of avatars) {
      expect(avatar.startsWith(`${origin}/avatar/`), avatar).toBe(true);
      const image = await viaMock('', avatar.slice(origin.length));
      expect(
        [image.status, image.headers.get('content-type')?.split(';')[0], image.body.subarray(0, 4).toString('hex')],
        avatar,
      ).toEqual([200, 'image/png', '89504e47']);
    }
    const links = [
      meta.links.counts,
      ...posts.flatMap((post) => [
        post.meta.links.self!,
        post.meta.links.site!,
        post.meta.links.replies!,
        post.meta.links.likes!,
      ]),
    ];
    for (const link of links) {
      expect(link.startsWith(`${origin}/rest/v1.1/`), link).toBe(true);
      const answer = await viaMock('', link.slice(origin.length), { headers: { Authorization: 'Bearer demo' } });
      expect(answer.status, link).toBe(200);
    }
    // Every link of every post is at the mock's origin (help and the terms' slug links too, which it cannot answer: docs/mock.md).
    const every = JSON.stringify(posts).match(/"https?:\/\/[^"]+\/rest\/[^"]+"/g) ?? [];
    expect(every.length).toBeGreaterThan(links.length);
    for (const link of every) expect(link.startsWith(`"${origin}/rest/`), link).toBe(true);
  });
});

describe('developer mock', () => {
  const session = { Cookie: 'dev_session=demo' };

  it('serves the list example to a caller with a session cookie', async () => {
    const res = await viaMock('/developer/v1', '/applications', { headers: session });
    expect(res.status).toBe(200);
    expect(res.json().applications[0].name).toBe('Weather widget');
  });

  it('serves the created example, with the key shown once', async () => {
    const res = await viaMock('/developer/v1', '/applications', {
      method: 'POST',
      headers: { ...session, 'X-CSRF-Token': 'demo', 'Content-Type': 'application/json', Prefer: 'example=created' },
      body: JSON.stringify({ name: 'Weather widget', description: '', website_url: 'https://weather.example.com' }),
    });
    expect(res.status).toBe(201);
    expect(res.json().new_key.secret).toMatch(/^pk_/);
  });

  it('refuses a caller without the session cookie', async () => {
    const res = await viaMock('/developer/v1', '/applications');
    expect(res.status).toBe(401);
    expect(res.json().code).toBe('unauthenticated');
  });

  it('refuses an invalid log-in request', async () => {
    const res = await viaMock('/developer/v1', '/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'not an address' }),
    });
    expect(res.status).toBe(400);
    expect(res.json().code).toBe('invalid_request');
  });
});
