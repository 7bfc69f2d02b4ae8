import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  server = await startServer();
  call = contractFetch(await contractChecker());
});
afterAll(() => server.close());

describe('routes outside the contract', () => {
  it('answers 404 in the profiles error format under /v3', async () => {
    const res = await call(`${server.url}/v3/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it("answers 404 with an empty text/plain body under /rest/v1.1, as the platform's endpoint layer does", async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/nothing`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('');
  });

  it('answers 404 for a non-numeric post_ID: it matches no route', async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/posts/abc/restore`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('answers 404 outside both APIs', async () => {
    const res = await call(`${server.url}/elsewhere`);
    expect(res.status).toBe(404);
  });
});

describe('methods', () => {
  it('answers 405 with Allow for a wrong method on a profiles path', async () => {
    const res = await call(`${server.url}/v3/profiles/alex`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
  });

  it("answers GET on the restore path (POST only) 404, as the platform's endpoint layer does", async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/posts/101/restore`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('answers another method on the restore path 405 not_allowed with Allow', async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/posts/101/restore`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ error: 'not_allowed', error_message: 'Method not allowed' });
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await call(`${server.url}/v3/openapi`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('trailing slash', () => {
  it('is accepted on the publishing path', async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/posts/101/restore/`, { method: 'POST' });
    expect(res.status).not.toBe(404);
  });
});

describe('request validation', () => {
  it('answers 400 naming the bad parameter', async () => {
    const res = await call(`${server.url}/v3/profiles/${'x'.repeat(129)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_request',
      error: expect.stringMatching(/profileIdentifier/),
    });
  });

  it('answers 400 for malformed percent-encoding in a path value', async () => {
    const res = await call(`${server.url}/v3/profiles/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/profileIdentifier/) });
  });
});

describe('the contracts are served', () => {
  it('as JSON at /v3/openapi', async () => {
    const res = await call(`${server.url}/v3/openapi`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      openapi: '3.1.0',
      info: { version: '3.1.0' },
      paths: { '/profiles/{profileIdentifier}': { get: { operationId: 'getProfileById' } } },
    });
  });

  it('as JSON at /rest/v1.1/openapi', async () => {
    const res = await call(`${server.url}/rest/v1.1/openapi`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      paths: { '/sites/{site}/posts/{post_ID}/restore': { post: { operationId: 'restorePost' } } },
    });
  });

  it('with their servers at the origin that serves them', async () => {
    const profiles = (await (await call(`${server.url}/v3/openapi`)).json()) as Record<string, any>;
    expect(profiles.servers[0].variables.base_url.default).toBe(`${server.url}/v3`);
    expect(profiles.paths['/avatar/{hash}'].servers[0].variables.origin.default).toBe(server.url);
    const publishing = (await (await call(`${server.url}/rest/v1.1/openapi`)).json()) as Record<string, any>;
    expect(JSON.stringify(publishing.servers)).toContain(server.url);
    const developer = (await (await call(`${server.url}/developer/v1/openapi`)).json()) as Record<string, any>;
    expect(developer.servers[0].variables.base_url.default).toBe(`${server.url}/developer/v1`);
    expect(JSON.stringify([profiles.servers, publishing.servers, developer.servers])).not.toContain('localhost:8080');
  });

  it('with their servers at PUBLIC_URL when it is set, whatever Host the request names', async () => {
    const configured = await startServer({ PUBLIC_URL: 'https://api.example.com' });
    try {
      const res = await call(`${configured.url}/v3/openapi`, { headers: { 'X-Forwarded-Host': 'evil.example' } });
      const document = (await res.json()) as Record<string, any>;
      expect(document.servers[0].variables.base_url.default).toBe('https://api.example.com/v3');
      expect(document.paths['/avatar/{hash}'].servers[0].variables.origin.default).toBe('https://api.example.com');
    } finally {
      await configured.close();
    }
  });

  it.each(['profiles', 'publishing'])('as self-contained HTML docs at /docs/%s', async (name) => {
    const res = await call(`${server.url}/docs/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain(name === 'profiles' ? 'Profiles API' : 'Publishing API');
    // Works offline: no script is loaded from another host.
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  });
});

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and makes one otherwise', async () => {
    const given = await call(`${server.url}/v3/openapi`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await call(`${server.url}/v3/openapi`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
