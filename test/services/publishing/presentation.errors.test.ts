import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The v1.1 presentation parameters on error answers (no token needed):
 * envelope, JSONP and pretty apply; `fields` does not.
 */
let server: TestServer;
let call: typeof fetch;
const restore = (query = '') => `${server.url}/rest/v1.1/sites/1/posts/101/restore${query}`;

beforeAll(async () => {
  server = await startServer();
  call = contractFetch(await contractChecker());
});
afterAll(() => server.close());

describe('http_envelope on an error', () => {
  it.each(['1', 'true', 'T', 't', 'TRUE'])('http_envelope=%s wraps a 401 in a 200 envelope', async (value) => {
    const res = await call(restore(`?http_envelope=${value}`), { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; body: unknown; headers: { name: string; value: string }[] };
    expect(body.code).toBe(401);
    expect(body.body).toEqual({
      error: 'authorization_required',
      message: 'An active access token must be used to access this endpoint.',
    });
    expect(body.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
    expect(body.headers).toContainEqual({ name: 'WWW-Authenticate', value: 'Bearer' });
  });

  it.each(['0', 'false', 'no', '', 'yes', 'on', 'truthy'])(
    'http_envelope=%s leaves the status as it is',
    async (value) => {
      const res = await call(restore(`?http_envelope=${value}`), { method: 'POST' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    },
  );

  it("wraps the endpoint layer's 405 too", async () => {
    const res = await call(restore('?http_envelope=1'), { method: 'PATCH' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ code: 405, body: { error: 'not_allowed', error_message: 'Method not allowed' } });
    expect(body.headers).toContainEqual({ name: 'Allow', value: 'POST' });
  });

  it("never wraps the endpoint layer's empty 404 (it is plain text, as on the platform)", async () => {
    const res = await call(`${server.url}/rest/v1.1/sites/1/nothing?http_envelope=1&callback=cb`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('');
  });
});

describe('callback on an error', () => {
  it('wraps the error as JSONP, served as JavaScript with nosniff', async () => {
    const res = await call(restore('?callback=handle'), { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(
      '/**/handle({"error":"authorization_required","message":"An active access token must be used to access this endpoint."});',
    );
  });

  it('strips every character outside [A-Za-z0-9_.] from the name', async () => {
    const res = await call(restore(`?callback=${encodeURIComponent('alert(1)//<script>a.b_c')}`), { method: 'POST' });
    expect(await res.text()).toMatch(/^\/\*\*\/alert1scripta\.b_c\(\{/);
  });

  it('does not wrap when nothing is left of the name', async () => {
    const res = await call(restore(`?callback=${encodeURIComponent('();<>')}`), { method: 'POST' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ error: 'authorization_required' });
  });

  it('applies the envelope first, then the wrapping', async () => {
    const res = await call(restore('?callback=cb&http_envelope=1'), { method: 'POST' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('/**/cb({"code":401,"headers":[')).toBe(true);
    expect(text.endsWith('});')).toBe(true);
  });
});

describe('pretty on an error', () => {
  it('indents by 4 spaces', async () => {
    const res = await call(restore('?pretty=1'), { method: 'POST' });
    expect(await res.text()).toBe(
      '{\n    "error": "authorization_required",\n    "message": "An active access token must be used to access this endpoint."\n}',
    );
  });
});

describe('fields on an error', () => {
  it('is not applied to an error body', async () => {
    const res = await call(restore('?fields=ID,title'), { method: 'POST' });
    expect(await res.json()).toEqual({
      error: 'authorization_required',
      message: 'An active access token must be used to access this endpoint.',
    });
  });
});

describe('tokens', () => {
  it('an unknown token is invalid_token with WWW-Authenticate', async () => {
    const res = await call(restore(), { method: 'POST', headers: { Authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('a token in the query string is not accepted as a credential', async () => {
    const res = await call(restore('?access_token=abc&token=abc'), { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'authorization_required' });
  });
});
