import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * What the platform's endpoint layer does on every path under `/rest/v1.1`
 * (`WPCOM_JSON_API::serve`, `::output`, `::is_truthy`): boolean flags read
 * leniently, unknown paths and other methods, `OPTIONS`, and CORS. Every
 * answer goes through the contract checker.
 */
const ALLOWED = 'https://app.example.com';
let harness: PublishingTestServer;
let base: string;
let admin: string;

beforeAll(async () => {
  harness = await startPublishing({ PUBLISHING_CORS_ORIGINS: `${ALLOWED}, https://other.example.com` });
  base = `${harness.server.url}/rest/v1.1`;
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const post = (id = 108, query = '') => `${base}/sites/1/posts/${id}${query}`;

describe('boolean query flags', () => {
  it.each(['1', 't', 'T', 'true', 'TRUE', 'True'])('pretty=%s indents by 4 spaces', async (value) => {
    const res = await harness.call(post(108, `?fields=ID,status&pretty=${value}`));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{\n    "ID": 108,\n    "status": "publish"\n}');
  });

  it.each(['yes', 'on', '2', 'no', '0', 'false', 'f', '', 'TRUE!'])(
    'pretty=%s means false: compact JSON, not 400',
    async (value) => {
      const res = await harness.call(post(108, `?fields=ID,status&pretty=${encodeURIComponent(value)}`));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('{"ID":108,"status":"publish"}');
    },
  );

  it.each(['yes', 'on', 'y', '2'])('http_envelope=%s means false: the answer is not enveloped', async (value) => {
    const res = await harness.call(post(999, `?http_envelope=${value}`));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('unknown_post');
  });

  it('a repeated flag counts by its last value', async () => {
    const res = await harness.call(post(999, '?http_envelope=1&http_envelope=yes'));
    expect(res.status).toBe(404);
  });
});

describe('fields, where the operation declares it', () => {
  it('keeps the named keys of each post of a list, and the list itself whole', async () => {
    const res = await harness.call(`${base}/sites/1/posts?fields=ID,status`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { found: number; posts: Record<string, unknown>[] };
    expect(body.found).toBeGreaterThan(0);
    expect(body.posts.length).toBe(Math.min(body.found, 20));
    for (const post of body.posts) expect(Object.keys(post)).toEqual(['ID', 'status']);
  });

  it('is ignored by an operation that does not declare it (the replies)', async () => {
    const whole = await (await harness.call(`${base}/sites/1/posts/108/replies`)).json();
    const res = await harness.call(`${base}/sites/1/posts/108/replies?fields=found`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(whole);
  });
});

describe('paths no operation serves', () => {
  it.each([
    ['GET', '/sites/1/nothing'],
    ['POST', '/sites/1/nothing'],
    ['GET', '/sites/1/posts/abc'],
    ['POST', '/sites/1/posts/abc/delete'],
    // Known paths, under the other of GET and POST:
    ['GET', '/sites/1/posts/101/restore'],
    ['GET', '/sites/1/posts/101/delete'],
    ['GET', '/sites/1/posts/new'],
    ['POST', '/sites/1/posts/slug:about'],
  ])('%s %s is 404 with an empty text/plain body, never enveloped or wrapped', async (method, path) => {
    for (const query of ['', '?http_envelope=1&callback=cb&pretty=1']) {
      const res = await harness.call(`${base}${path}${query}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.text()).toBe('');
    }
  });
});

describe('other methods', () => {
  it.each([
    ['PUT', '/sites/1/posts/101/restore', 'POST'],
    ['DELETE', '/sites/1/posts/101/delete', 'POST'],
    ['PATCH', '/sites/1/posts/108', 'GET,POST'],
    ['DELETE', '/sites/1/posts/108', 'GET,POST'],
    ['HEAD', '/sites/1/posts/101/restore', 'POST'],
  ])('%s %s is 405 not_allowed with Allow: %s', async (method, path, allow) => {
    const res = await harness.call(`${base}${path}`, { method, headers: { Authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    if (method !== 'HEAD')
      expect(await res.json()).toEqual({ error: 'not_allowed', error_message: 'Method not allowed' });
  });

  it('an unknown path under another method is 404', async () => {
    const res = await harness.call(`${base}/sites/1/nothing`, { method: 'PUT' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('the 405 is never wrapped as JSONP (no operation took it, so no script is served)', async () => {
    const res = await harness.call(`${base}/sites/1/posts/108?callback=cb`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe('{"error":"not_allowed","error_message":"Method not allowed"}');
  });

  it('HEAD on a path that takes GET is answered like GET, without a body', async () => {
    const res = await harness.call(post(108), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('OPTIONS', () => {
  it.each(['/sites/1/posts/108', '/sites/1/posts/101/restore', '/sites/1/nothing', '/openapi'])(
    'on %s is 200 with an empty text/plain body',
    async (path) => {
      const res = await harness.call(`${base}${path}`, { method: 'OPTIONS' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('');
    },
  );

  it('answers a preflight from an allowed origin with the methods and headers it may use', async () => {
    const res = await harness.call(`${base}/sites/1/posts/101/delete`, {
      method: 'OPTIONS',
      headers: {
        Origin: ALLOWED,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('gives a preflight from another origin no CORS header', async () => {
    const res = await harness.call(`${base}/sites/1/posts/101/delete`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.net', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('CORS on answers', () => {
  it('an allowed origin gets its own origin back, with Vary: Origin', async () => {
    const res = await harness.call(post(108), { headers: { Origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('another origin gets none on a 200, 401 or 403', async () => {
    for (const [url, init] of [
      [post(108), {}],
      [`${base}/sites/1/posts/101/restore`, { method: 'POST' }],
      [post(101), {}],
    ] as const) {
      const res = await harness.call(url, { ...init, headers: { Origin: 'https://evil.example.net' } });
      expect(res.headers.get('access-control-allow-origin'), url).toBeNull();
    }
  });

  it('a 400 or 404 carries * whatever the origin, as the platform sends it', async () => {
    const notFound = await harness.call(post(999), { headers: { Origin: 'https://evil.example.net' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await harness.call(`${base}/sites/${'x'.repeat(300)}/posts/108`, {
      headers: { Origin: 'https://evil.example.net' },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('PUBLISHING_CORS_ORIGINS=* allows every origin', async () => {
    const open = await startPublishing({ PUBLISHING_CORS_ORIGINS: '*' });
    try {
      const res = await open.call(`${open.server.url}/rest/v1.1/sites/1/posts/108`, {
        headers: { Origin: 'https://any.example.org' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await open.close();
    }
  });
});
