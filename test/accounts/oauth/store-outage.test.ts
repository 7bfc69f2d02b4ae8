import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readContract } from '../../../scripts/contracts.js';
import type { TestServer } from '../../support/server.js';
import {
  authorizationRequest,
  authorizedCallback,
  checkedFetch,
  personOf,
  redeem,
  registeredApp,
  startOAuthServer,
} from './support.js';

/**
 * The store unavailable under the authorization server: the library's
 * routes answer 503 `temporarily_unavailable` with `Retry-After`
 * (`STORE_RETRY_AFTER_SECONDS`), as the services' routes do, never the
 * library's 500. Every answer goes through the contract check. The outage
 * is the store's own unavailable error, thrown when a connection is asked
 * for: the driver's busy error on SQLite, a refused connection on
 * PostgreSQL.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer({ STORE_RETRY_AFTER_SECONDS: '7' });
});
afterAll(() => server?.close());
afterEach(() => vi.restoreAllMocks());

const onPostgres = (process.env.TEST_DATABASE_URL ?? '').startsWith('postgres');
const outage = () =>
  onPostgres
    ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    : Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** Makes every store request of the running server fail as an unavailable store does, until the test ends. */
function storeDown(on: TestServer = server) {
  const executor = Object.getPrototypeOf(on.built.db.getExecutor()) as { provideConnection: () => Promise<unknown> };
  vi.spyOn(executor, 'provideConnection').mockImplementation(() => Promise.reject(outage()));
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('7');
  expect(await response.json()).toMatchObject({
    error: 'temporarily_unavailable',
    error_description: expect.any(String),
  });
}

describe('the store unavailable', () => {
  it('answers the authorization, consent-resume, token and revocation endpoints 503 with Retry-After', async () => {
    const app = await registeredApp(server);
    const person = await personOf(server, 'ada@demo.example.com');
    const { callback, state, codeVerifier } = await authorizedCallback(server, app, person, 'publishing:read', [
      { id: 1, access: 'read' },
    ]);
    const tokens = await redeem(app, callback, state, codeVerifier);
    // An authorization request waiting at the consent page, with the browser's cookie for its resume.
    const request = await authorizationRequest(app.as, app.client, 'publishing:read');
    const toConsent = await checkedFetch(request.url, { redirect: 'manual' });
    const uid = new URLSearchParams(new URL(toConsent.headers.get('location')!, server.url).hash.slice(1)).get(
      'consent',
    )!;
    const cookie = toConsent.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const clientId = app.client.client_id;

    storeDown();
    await expectUnavailable(await checkedFetch(request.url, { redirect: 'manual' }));
    await expectUnavailable(
      await checkedFetch(`${server.url}/oauth2/authorize/${uid}`, { redirect: 'manual', headers: { cookie } }),
    );
    await expectUnavailable(
      await checkedFetch(
        `${server.url}/oauth2/token`,
        form({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token! }),
      ),
    );
    await expectUnavailable(
      await checkedFetch(`${server.url}/oauth2/revoke`, form({ client_id: clientId, token: tokens.access_token })),
    );

    // Back again: the same requests are answered as before.
    vi.restoreAllMocks();
    const refreshed = await checkedFetch(
      `${server.url}/oauth2/token`,
      form({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token! }),
    );
    expect(refreshed.status).toBe(200);
  });
});

describe('the store unavailable at the first request', () => {
  it('answers 503 with Retry-After while the server cannot read its keys', async () => {
    const fresh = await startOAuthServer({ STORE_RETRY_AFTER_SECONDS: '7' });
    try {
      storeDown(fresh);
      const metadata = await checkedFetch(`${fresh.url}/.well-known/oauth-authorization-server/oauth2`);
      expect(metadata.status).toBe(503);
      expect(metadata.headers.get('retry-after')).toBe('7');
      expect(await metadata.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.any(String),
      });
      vi.restoreAllMocks();
      expect((await checkedFetch(`${fresh.url}/.well-known/oauth-authorization-server/oauth2`)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('the authorization endpoint', () => {
  it.each([
    ['longer than 128 characters', 'a'.repeat(129), /maximum length of 128/],
    ['shorter than 43 characters', 'a'.repeat(42), /minimum length of 43/],
    ['of 44 characters, which no S256 verifier gives', 'a'.repeat(44), /must be 43 characters/],
    ['of 43 characters outside base64url', `${'a'.repeat(42)}~`, /must be 43 characters/],
    ['with a character no verifier has', `${'a'.repeat(42)}+`, /invalid characters/],
  ])('refuses a code_challenge %s with invalid_request to the app, not a 500', async (_, challenge, description) => {
    const app = await registeredApp(server);
    const request = await authorizationRequest(app.as, app.client, 'publishing:read');
    request.url.searchParams.set('code_challenge', challenge);
    const answer = await checkedFetch(request.url, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(description);
  });

  it('the contract refuses exactly the code_challenge values the server refuses', () => {
    const parameters = Object.values(readContract('oauth').paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { parameters?: { name: string; schema: { pattern: string } }[] }>).flatMap(
        (operation) => operation.parameters ?? [],
      ),
    );
    const pattern = new RegExp(parameters.find((parameter) => parameter.name === 'code_challenge')!.schema.pattern);
    expect(pattern.test('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(
      ['a'.repeat(42), 'a'.repeat(44), 'a'.repeat(129), `${'a'.repeat(42)}~`, `${'a'.repeat(42)}+`].some((value) =>
        pattern.test(value),
      ),
    ).toBe(false);
  });
});
