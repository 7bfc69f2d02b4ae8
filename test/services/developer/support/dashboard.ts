import { randomUUID } from 'node:crypto';
import { createClient, createConfig, type Client } from '../../../../generated/developer/client/index.js';
import * as sdk from '../../../../generated/developer/sdk.gen.js';
import type { Session } from '../../../../generated/developer/types.gen.js';
import { contractChecker, contractFetch } from '../../../support/contract.js';
import { startServer, type TestServer } from '../../../support/server.js';
import { createKyselyDeveloperStore } from '../../../../src/services/developer/store/kyselyDeveloperStore.js';
import { accountSites } from '../../../../src/services/publishing/store/accountSites.js';

/**
 * Environment of a test server: room for the sign-ups and log-ins of a whole test file from its one address
 * (every attempt counts against it, successful ones too); the tests of that limit set their own. Passwords are
 * hashed at the test cost (`startServer`).
 */
export const DASHBOARD_ENV = { DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '10000' };

export const startDashboardServer = (env: Record<string, string> = {}) => startServer({ ...DASHBOARD_ENV, ...env });

/** A password that passes the strength rules. */
export const GOOD_PASSWORD = 'violet tractor umbrella 42';

export const uniqueEmail = (name = 'dev') => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * A browser-like caller of the dashboard API: the generated SDK over a fetch
 * that checks every answer against the contracts and keeps the session
 * cookie as a browser would (set by `Set-Cookie`, cleared by `Max-Age=0`).
 */
export interface DashboardCaller {
  client: Client;
  /** The session token the caller holds, if any. */
  cookie(): string | undefined;
  setCookie(token: string | undefined): void;
  /** A checked fetch that sends the caller's cookie. */
  fetch: typeof fetch;
}

export async function dashboardCaller(server: TestServer): Promise<DashboardCaller> {
  const checked = contractFetch(await contractChecker());
  let token: string | undefined;
  const withCookie: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (token !== undefined && !request.headers.has('cookie')) request.headers.set('cookie', `dev_session=${token}`);
    const response = await checked(request);
    const set = /^(?:__Host-)?dev_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '');
    if (set) token = set[1] || undefined;
    return response;
  };
  return {
    client: createClient(createConfig({ baseUrl: `${server.url}/developer/v1`, fetch: withCookie })),
    cookie: () => token,
    setCookie: (value) => (token = value),
    fetch: withCookie,
  };
}

/** A signed-up, logged-in caller with its session's CSRF header. */
export interface DashboardUser extends DashboardCaller {
  email: string;
  password: string;
  session: Session;
  csrf: { 'X-CSRF-Token': string };
}

/**
 * Marks an address verified through the store module, as following the
 * emailed link would (test/services/developer/email.test.ts follows real links).
 */
export async function verifyAddress(server: TestServer, email: string) {
  const store = createKyselyDeveloperStore(server.built.db, accountSites(server.built.db));
  const credentials = await store.findCredentials(email);
  if (!credentials) throw new Error(`no dashboard account for ${email}`);
  await store.markEmailVerified(credentials.accountId);
}

/** Signs up (202, whatever the address), verifies the address (unless `verified: false`) and logs in, as the dashboard page does. */
export async function signedUpUser(
  server: TestServer,
  email = uniqueEmail(),
  options: { verified?: boolean } = {},
): Promise<DashboardUser> {
  const caller = await dashboardCaller(server);
  const signUp = await sdk.signUp({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
  if (signUp.response.status !== 202) throw new Error(`sign-up failed with ${signUp.response.status}`);
  if (options.verified !== false) await verifyAddress(server, email);
  const { data, response } = await sdk.logIn({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
  if (response.status !== 200 || !data) throw new Error(`log-in after sign-up failed with ${response.status}`);
  return { ...caller, email, password: GOOD_PASSWORD, session: data, csrf: { 'X-CSRF-Token': data.csrf_token } };
}

/** Creates an application for a user and answers the issued key and application. */
export async function createdApplication(user: DashboardUser, name = 'Weather widget') {
  const { data, response } = await sdk.createApplication({
    client: user.client,
    headers: user.csrf,
    body: { name, description: 'Shows profiles next to forecasts.', website_url: 'https://weather.example.com' },
  });
  if (response.status !== 201 || !data) throw new Error(`create failed with ${response.status}`);
  return data;
}

/** `GET /v3/profiles/alex` with a key, checked against the profiles contract. */
export async function profileWithKey(server: TestServer, key: string) {
  const response = await contractFetch(await contractChecker())(`${server.url}/v3/profiles/alex`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}
