import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, type ContractChecker } from '../support/contract.js';
import { issueCredential, publishingToken } from '../support/credentials.js';
import { isPrismViolation, startPrismProxy, type PrismProxy } from '../support/prism.js';
import { startServer, type TestServer } from '../support/server.js';
import { verifyAddress } from '../services/developer/support/dashboard.js';

/**
 * A representative replay of the behaviour suites' traffic through Prism's
 * validating proxy (`prism proxy --errors`) in front of the real server:
 * Prism checks every request and every answer against the contract with its
 * own validator, independently of ours, and turns a violation into its own
 * 422 or 500 problem+json. No answer here may be one of those; each is also
 * checked by our contract checker.
 */
const KEYED_LIMIT = 2;
let server: TestServer;
let checker: ContractChecker;
const proxies = new Map<string, PrismProxy>();

beforeAll(async () => {
  server = await startServer({
    RATE_LIMIT_KEYED: String(KEYED_LIMIT),
    // Every key this file issues belongs to one account: its own limit stays out of the way.
    RATE_LIMIT_ACCOUNT: '1000',
    RATE_LIMIT_ANONYMOUS: '1000',
  });
  checker = await contractChecker();
  await Promise.all(
    server.built.services.map(async (service) => {
      proxies.set(
        service.name,
        await startPrismProxy(`openapi/${service.name}.yaml`, `${server.url}${service.prefix}`),
      );
    }),
  );
}, 60_000);

afterAll(async () => {
  for (const proxy of proxies.values()) proxy.stop();
  await server?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): Record<string, unknown>;
}

/**
 * One request through the service's proxy (`path` without the prefix). The
 * answer must not be a Prism violation, and our checker must accept it too.
 */
async function viaPrism(serviceName: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const proxy = proxies.get(serviceName)!;
  const service = server.built.services.find((s) => s.name === serviceName)!;
  const method = init.method ?? 'GET';
  const res = await fetch(`${proxy.base}${path}`, init);
  const text = await res.text();
  expect(isPrismViolation(res.status, res.headers), `${method} ${path} -> ${res.status}: ${text}`).toBe(false);
  checker.check(method, new URL(`http://upstream${service.prefix}${path}`), res.status, res.headers, text);
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('profiles through prism proxy', () => {
  let key: string;
  beforeAll(async () => {
    key = (await issueCredential.profiles!(server)).authorization!;
  });

  it.each([
    ['slug', 'alex'],
    ['SHA-256 hash', sha256('alex@example.com')],
    ['SHA-256 hash in capitals', sha256('alex@example.com').toUpperCase()],
    ['legacy MD5 hash', md5('alex@example.com')],
  ])('anonymous lookup by %s', async (_, identifier) => {
    const res = await viaPrism('profiles', `/profiles/${identifier}`);
    expect(res.status).toBe(200);
    expect(res.json().display_name).toBe('Alex Morgan');
    expect(res.json()).not.toHaveProperty('links');
  });

  it('keyed lookup gets the full profile', async () => {
    const res = await viaPrism('profiles', '/profiles/alex?source=hovercard', { headers: { Authorization: key } });
    expect(res.status).toBe(200);
    expect(res.json()).toHaveProperty('links');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('an unknown key is answered as anonymous', async () => {
    const res = await viaPrism('profiles', '/profiles/alex', { headers: { Authorization: 'Bearer pk_unknown' } });
    expect(res.status).toBe(200);
    expect(res.json()).not.toHaveProperty('links');
  });

  it('a matching If-None-Match is 304', async () => {
    const first = await viaPrism('profiles', '/profiles/sam');
    const res = await viaPrism('profiles', '/profiles/sam', {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(res.status).toBe(304);
  });

  it('an unknown profile is 404', async () => {
    const res = await viaPrism('profiles', '/profiles/nobody-by-this-name');
    expect(res.status).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it('beyond the rate limit, 429 with Retry-After', async () => {
    const own = (await issueCredential.profiles!(server)).authorization!;
    for (let i = 0; i < KEYED_LIMIT; i++)
      expect((await viaPrism('profiles', '/profiles/alex', { headers: { Authorization: own } })).status).toBe(200);
    const res = await viaPrism('profiles', '/profiles/alex', { headers: { Authorization: own } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('serves its OpenAPI document', async () => {
    expect((await viaPrism('profiles', '/openapi')).json().openapi).toBe('3.1.0');
  });
});

describe('publishing through prism proxy', () => {
  const restore = (site: string | number, post: number, query = '') => `/sites/${site}/posts/${post}/restore${query}`;
  const as = (token: string) => ({ method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  let admin: string;
  beforeAll(async () => {
    admin = await publishingToken(server, 'admin');
  });

  it('without a token, Prism itself refuses the request with 401 (the contract requires one)', async () => {
    const res = await fetch(`${proxies.get('publishing')!.base}${restore(1, 101)}`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await res.arrayBuffer();
  });

  it('an unknown token is 401 invalid_token', async () => {
    const res = await viaPrism('publishing', restore(1, 101), as('not-a-token'));
    expect(res.status).toBe(401);
    expect(res.json().error).toBe('invalid_token');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it.each([
    ['an unknown site', 'nowhere.example', 101, 'unknown_blog'],
    ['an unknown post', 1, 999_999, 'unknown_post'],
  ])('%s is 404', async (_, site, post, error) => {
    const res = await viaPrism('publishing', restore(site, post), as(admin));
    expect(res.status).toBe(404);
    expect(res.json().error).toBe(error);
  });

  it('a caller who may not restore the post is 403', async () => {
    const res = await viaPrism('publishing', restore(1, 101), as(await publishingToken(server, 'subscriber')));
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'User cannot restore trashed posts' });
  });

  it('context=edit for a caller who may not edit the post is 403', async () => {
    const res = await viaPrism(
      'publishing',
      restore(1, 104, '?context=edit'),
      as(await publishingToken(server, 'moderator')),
    );
    expect(res.status).toBe(403);
    expect(res.json().message).toBe('User cannot edit post');
  });

  it('restores a trashed post, context=edit', async () => {
    const res = await viaPrism('publishing', restore('demo.example.com', 101, '?context=edit'), as(admin));
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ID: 101, status: 'publish' });
  });

  it.each([
    ['fields', '?fields=ID,title,status'],
    ['meta', '?meta=site,likes'],
    ['http_envelope=1', '?http_envelope=1'],
    ['http_envelope=true on an error', '?http_envelope=true'],
    ['pretty=1', '?pretty=1'],
    ['callback', '?callback=handle'],
    ['envelope, fields and callback together', '?http_envelope=t&fields=ID,status&callback=cb'],
  ])('with %s', async (_, query) => {
    const token = query.includes('on an error') ? 'not-a-token' : admin;
    const res = await viaPrism('publishing', restore(1, 102, query), as(token));
    expect(res.status).toBe(200);
  });

  it('reads a published post without a token, a trashed one only with the right to edit it', async () => {
    const res = await viaPrism('publishing', '/sites/1/posts/108?meta=site');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ID: 108, status: 'publish' });
    expect((await viaPrism('publishing', '/sites/1/posts/113')).status).toBe(403);
    expect(
      (
        await viaPrism('publishing', '/sites/1/posts/113?context=edit', {
          headers: { Authorization: `Bearer ${admin}` },
        })
      ).status,
    ).toBe(200);
  });

  it('trashes a post, deletes it from the trash for good, then finds it gone', async () => {
    expect((await viaPrism('publishing', '/sites/1/posts/109/delete', as(admin))).json().status).toBe('deleted');
    expect((await viaPrism('publishing', '/sites/1/posts/109/delete', as(admin))).status).toBe(404);
    const trashed = await viaPrism('publishing', '/sites/1/posts/112/delete?fields=ID,status', as(admin));
    expect(trashed.json()).toEqual({ ID: 112, status: 'trash' });
    expect((await viaPrism('publishing', restore(1, 112), as(admin))).json().status).toBe('publish');
  });

  it('serves its OpenAPI document, as JSONP too', async () => {
    expect((await viaPrism('publishing', '/openapi')).json().openapi).toBe('3.1.0');
    expect((await viaPrism('publishing', '/openapi?callback=doc')).text.startsWith('/**/doc({')).toBe(true);
  });
});

describe('developer dashboard through prism proxy', () => {
  const email = `prism-${Date.now()}@example.com`;
  const password = 'violet tractor umbrella 42';
  const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  let session: { cookie: string; 'x-csrf-token': string };
  let applicationId: string;
  let keyId: string;

  it('signs up: 202, and the same answer for the same address again (nothing revealed)', async () => {
    const first = await viaPrism('developer', '/accounts', json('POST', { email, password }));
    expect(first.status).toBe(202);
    const again = await viaPrism('developer', '/accounts', json('POST', { email, password }));
    expect(again.status).toBe(202);
    expect(again.json()).toEqual(first.json());
    // Applications need a verified address (the link of the email, followed in test/services/developer/email.test.ts).
    await verifyAddress(server, email);
  });

  it('a wrong password is 401 invalid_credentials; the right one 200 with the session cookie', async () => {
    expect((await viaPrism('developer', '/session', json('POST', { email, password: `${password}!` }))).status).toBe(
      401,
    );
    const res = await viaPrism('developer', '/session', json('POST', { email, password }));
    expect(res.status).toBe(200);
    const cookie = /^dev_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie).toBeDefined();
    session = { cookie: cookie!, 'x-csrf-token': String(res.json().csrf_token) };
  });

  it('reads the session', async () => {
    const res = await viaPrism('developer', '/session', { headers: { cookie: session.cookie } });
    expect(res.status).toBe(200);
    expect(res.json().email).toBe(email);
  });

  it('creates an application with a key, lists it, rotates and revokes its key, deletes it', async () => {
    const created = await viaPrism(
      'developer',
      '/applications',
      json(
        'POST',
        { name: 'Prism check', description: 'Through the proxy.', website_url: 'https://prism.example.com' },
        session,
      ),
    );
    expect(created.status).toBe(201);
    applicationId = String((created.json().application as { id: string }).id);
    expect((await viaPrism('developer', '/applications', { headers: { cookie: session.cookie } })).status).toBe(200);
    const rotated = await viaPrism('developer', `/applications/${applicationId}/rotate-key`, {
      method: 'POST',
      headers: session,
    });
    expect(rotated.status).toBe(200);
    keyId = String((rotated.json().new_key as { id: string }).id);
    expect(
      (
        await viaPrism('developer', `/applications/${applicationId}/keys/${keyId}/revoke`, {
          method: 'POST',
          headers: session,
        })
      ).status,
    ).toBe(200);
    expect(
      (await viaPrism('developer', `/applications/${applicationId}`, { method: 'DELETE', headers: session })).status,
    ).toBe(204);
    expect(
      (await viaPrism('developer', `/applications/${applicationId}`, { method: 'DELETE', headers: session })).status,
    ).toBe(404);
  });

  it('a wrong CSRF token is 403', async () => {
    const res = await viaPrism('developer', '/session', {
      method: 'DELETE',
      headers: { ...session, 'x-csrf-token': 'wrong' },
    });
    expect(res.status).toBe(403);
  });

  it('logs out: 204, and the session is gone (401)', async () => {
    expect((await viaPrism('developer', '/session', { method: 'DELETE', headers: session })).status).toBe(204);
    expect((await viaPrism('developer', '/session', { headers: { cookie: session.cookie } })).status).toBe(401);
  });
});

describe('the proxy really validates', () => {
  it('refuses a request that breaks the contract with its own 422, before the server sees it', async () => {
    const res = await fetch(`${proxies.get('profiles')!.base}/profiles/${'x'.repeat(200)}`);
    expect(res.status).toBe(422);
    expect(isPrismViolation(res.status, res.headers)).toBe(true);
    await res.arrayBuffer();
  });
});
