import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from '../../scripts/fresh.mjs';
import { freePort, projectRoot, quietToolEnv } from '../../scripts/tools.js';
import { contractChecker } from '../support/contract.js';

/**
 * `npm run mock` serves every contract with Prism on production's paths at
 * one origin: each documented example comes back, every valid answer is
 * clean (no `sl-violations`), avatars are real PNG images, the contracts'
 * endpoint rules hold as on the server, and an invalid request is refused
 * before any mock answer.
 */

let mock: ChildProcess;
let origin: string;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  mock = spawn(process.execPath, ['scripts/mock.mjs'], {
    cwd: projectRoot,
    env: { ...quietToolEnv, MOCK_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${origin}/v3/profiles/alex`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(() => {
  if (mock.pid) process.kill(-mock.pid, 'SIGTERM');
});

/** A call to the mock, its answer checked against the contracts (production's path: prefix + path) and free of Prism's violation report. */
async function viaMock(prefix: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${origin}${prefix}${path}`, init);
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString('utf8');
  (await contractChecker()).check(init.method ?? 'GET', new URL(`http://mock${prefix}${path}`), res.status, res.headers, text, body);
  if (res.status < 400) expect(res.headers.get('sl-violations'), `${prefix}${path}`).toBeNull();
  return { status: res.status, headers: res.headers, text, body, json: () => JSON.parse(text) };
}

describe('what it starts from', () => {
  it('is its build in dist/mock, up to date: Prism in one file without faker, and its operations prepared', () => {
    expect(isFresh(BUILD_STAMPS.mock, BUILD_INPUTS.mock)).toBe(true);
    const prism = readFileSync(join(projectRoot, 'dist/mock/prism.cjs'), 'utf8');
    expect(prism).toContain('createServer');
    // faker (every locale) is required only when a dynamic answer first needs it.
    expect(prism).not.toMatch(/faker[\\/]dist[\\/]cjs[\\/]locales/);
    const operations = JSON.parse(readFileSync(join(projectRoot, 'dist/mock/operations.json'), 'utf8')) as { path: string }[];
    expect(operations.map((operation) => operation.path)).toContain('/v3/profiles/{profileIdentifier}');
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
    const noRoute = await fetch(`${origin}/rest/v1.1/sites/1/posts/abc/restore`, { method: 'POST', headers: { Authorization: 'Bearer demo' } });
    expect(noRoute.status).toBe(404);
    expect(await noRoute.text()).toBe('');
    expect(noRoute.headers.get('content-type')).toMatch(/^text\/plain/);
    const slash = await viaMock('/rest/v1.1', '/sites/1/posts/108/', { headers: { Prefer: 'example=anonymous' } });
    expect(slash.status).toBe(200);
    const options = await fetch(`${origin}/rest/v1.1/sites/1/posts/108`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
  });

  it('lets a front end on another origin call every service (CORS, preflights included)', async () => {
    const from = { Origin: 'http://localhost:3000' };
    const preflight = await fetch(`${origin}/rest/v1.1/sites/1/posts/101/restore`, {
      method: 'OPTIONS',
      headers: { ...from, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const noRoute = await fetch(`${origin}/rest/v1.1/sites/1/posts/abc/restore`, { method: 'POST', headers: from });
    expect(noRoute.headers.get('access-control-allow-origin')).toBe('*');
    for (const path of ['/v3/profiles/alex', '/rest/v1.1/sites/1/posts/108']) {
      const answer = await fetch(`${origin}${path}`, { headers: from });
      expect(['*', from.Origin], path).toContain(answer.headers.get('access-control-allow-origin'));
    }
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

  it('serves the example of whether I like a post', async () => {
    const res = await viaMock('/rest/v1.1', '/sites/1/posts/108/likes/mine', { headers: { ...auth, Prefer: 'example=liked' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ i_like: true, like_count: 2, post_ID: 108 });
  });

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
