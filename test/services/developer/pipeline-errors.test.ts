import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import { signedUpUser, startDashboardServer, type DashboardUser } from './support/dashboard.js';

/**
 * The dashboard API through the shared pipeline: request bodies (415, 413,
 * 400), unknown paths and methods, the contract document, and its headers.
 */
let server: TestServer;
let call: typeof fetch;
let user: DashboardUser;
const api = (path: string) => `${server.url}/developer/v1${path}`;

beforeAll(async () => {
  server = await startDashboardServer();
  call = contractFetch(await contractChecker());
  user = await signedUpUser(server);
});
afterAll(() => server.close());

const logIn = (body: BodyInit | undefined, contentType = 'application/json') =>
  call(api('/session'), { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });

const errorOf = async (response: Response) => (await response.json()) as { error: string; code: string };

describe('request bodies', () => {
  it('415 for a body that is not JSON', async () => {
    const response = await logIn('email=a@example.com&password=x', 'application/x-www-form-urlencoded');
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toEqual({
      error: 'The request body must be application/json',
      code: 'unsupported_media_type',
    });
  });

  it('413 for a body over 64 kB', async () => {
    const response = await logIn(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70_000) }));
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
  });

  it('400 for malformed JSON', async () => {
    const response = await logIn('{"email": ');
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({ error: 'Invalid body: malformed JSON', code: 'invalid_request' });
  });

  it('400 for a missing body', async () => {
    const response = await logIn(undefined, '');
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      error: 'Invalid body: a JSON body is required',
      code: 'invalid_request',
    });
  });

  it('400 for a field the contract does not know', async () => {
    const response = await logIn(JSON.stringify({ email: 'a@example.com', password: 'xxxxxxxxxxxx', admin: true }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect(error.error).toMatch(/^Invalid body field.*: must NOT have additional properties$/);
  });

  it('415 on a call with a session too, after the CSRF check', async () => {
    const response = await call(api('/applications'), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: `dev_session=${user.cookie()}`, ...user.csrf },
      body: 'name=x',
    });
    expect(response.status).toBe(415);
  });
});

describe('routes', () => {
  it('404 for a path no operation describes', async () => {
    const response = await call(api('/nothing-here'));
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('405 with Allow for a method the path does not take', async () => {
    const response = await call(api('/session'), { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST']);
    expect((await errorOf(response)).code).toBe('method_not_allowed');
  });

  it('400 for an application id longer than the contract allows', async () => {
    const response = await call(api(`/applications/${'a'.repeat(65)}`), {
      method: 'DELETE',
      headers: { cookie: `dev_session=${user.cookie()}`, ...user.csrf },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error).toMatch(/^Invalid parameter applicationId: /);
  });

  it('serves its own OpenAPI document', async () => {
    const response = await call(api('/openapi'));
    expect(response.status).toBe(200);
    const document = (await response.json()) as { info: { title: string }; paths: Record<string, unknown> };
    expect(document.info.title).toBe('Developer Dashboard API');
    expect(Object.keys(document.paths)).toContain('/applications/{applicationId}/rotate-key');
  });

  it('marks every answer no-store and sends no CORS headers', async () => {
    const response = await call(api('/applications'), {
      headers: { cookie: `dev_session=${user.cookie()}`, Origin: 'https://elsewhere.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the rendered docs at /docs/developer', async () => {
    const response = await fetch(`${server.url}/docs/developer`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Developer Dashboard API');
  });
});
