import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import {
  createdApplication,
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
  type DashboardUser,
} from './support/dashboard.js';

/**
 * "CSRF protection on every state-changing call": the session's token in
 * `X-CSRF-Token`, checked after the session and before anything changes;
 * a cross-site `Origin` is refused, log-in and sign-up included.
 */
let server: TestServer;
let user: DashboardUser;
let applicationId: string;
let keyId: string;

beforeAll(async () => {
  server = await startDashboardServer();
  user = await signedUpUser(server);
  const created = await createdApplication(user);
  applicationId = created.application.id;
  keyId = created.new_key.id;
});
afterAll(() => server.close());

/** Every state-changing call of a logged-in user, with the CSRF header it is given. */
const stateChangingCalls: [
  string,
  (headers: { 'X-CSRF-Token': string }) => Promise<{ response: Response; error?: unknown }>,
][] = [
  [
    'createApplication',
    (headers) =>
      sdk.createApplication({
        client: user.client,
        headers,
        body: { name: 'Forged', description: '', website_url: 'https://evil.example' },
      }),
  ],
  [
    'rotateApplicationKey',
    (headers) => sdk.rotateApplicationKey({ client: user.client, headers, path: { applicationId } }),
  ],
  ['revokeApiKey', (headers) => sdk.revokeApiKey({ client: user.client, headers, path: { applicationId, keyId } })],
  ['deleteApplication', (headers) => sdk.deleteApplication({ client: user.client, headers, path: { applicationId } })],
  ['logOut', (headers) => sdk.logOut({ client: user.client, headers })],
  [
    'requestEmailChange',
    (headers) =>
      sdk.requestEmailChange({
        client: user.client,
        headers,
        body: { new_email: 'forged@evil.example', password: user.password },
      }),
  ],
  [
    'changePassword',
    (headers) =>
      sdk.changePassword({
        client: user.client,
        headers,
        body: { current_password: user.password, new_password: 'purple walrus ladder 77' },
      }),
  ],
  [
    'deleteAccount',
    (headers) => sdk.deleteAccount({ client: user.client, headers, body: { password: user.password } }),
  ],
];

/** The user's applications as the store has them, to prove a refused call changed nothing. */
const applicationsNow = async () => (await sdk.listApplications({ client: user.client })).data;

describe('X-CSRF-Token', () => {
  it.each(stateChangingCalls)('%s without the token is refused with 403 and changes nothing', async (_name, call) => {
    const before = await applicationsNow();
    const { response, error } = await call({ 'X-CSRF-Token': undefined as unknown as string });
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: 'Missing CSRF token', code: 'csrf_failed' });
    expect(await applicationsNow()).toEqual(before);
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);
  });

  it.each(stateChangingCalls)(
    "%s with another session's token is refused with 403 and changes nothing",
    async (_name, call) => {
      const other = await signedUpUser(server);
      const before = await applicationsNow();
      const { response, error } = await call(other.csrf);
      expect(response.status).toBe(403);
      expect(error).toEqual({ error: 'CSRF token does not match the session', code: 'csrf_failed' });
      expect(await applicationsNow()).toEqual(before);
    },
  );

  it("refuses the token of the same account's earlier session", async () => {
    const again = await sdk.logIn({ client: user.client, body: { email: user.email, password: user.password } });
    expect(again.response.status).toBe(200);
    const stale = user.csrf;
    user.csrf = { 'X-CSRF-Token': again.data!.csrf_token };
    const { response } = await sdk.rotateApplicationKey({
      client: user.client,
      headers: stale,
      path: { applicationId },
    });
    expect(response.status).toBe(403);
  });

  it('asks for a session before a token: without one the answer is 401, not 403', async () => {
    const anonymous = await dashboardCaller(server);
    const { response, error } = await sdk.createApplication({
      client: anonymous.client,
      headers: user.csrf,
      body: { name: 'Anonymous', description: '', website_url: 'https://a.example' },
    });
    expect(response.status).toBe(401);
    expect(error?.code).toBe('unauthenticated');
  });

  it('is not needed to read', async () => {
    expect((await sdk.listApplications({ client: user.client })).response.status).toBe(200);
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);
  });
});

describe('Origin', () => {
  it('refuses a log-in from another site (log-in CSRF)', async () => {
    const { response, error } = await sdk.logIn({
      client: user.client,
      headers: { Origin: 'https://evil.example' },
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: 'Cross-site request refused', code: 'csrf_failed' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-up from another site', async () => {
    const email = uniqueEmail();
    const { response } = await sdk.signUp({
      client: user.client,
      headers: { Origin: 'null' },
      body: { email, password: GOOD_PASSWORD },
    });
    expect(response.status).toBe(403);
    const later = await sdk.signUp({
      client: (await signedUpUser(server)).client,
      body: { email, password: GOOD_PASSWORD },
    });
    expect(later.response.status).toBe(202);
  });

  it('refuses a state-changing call from another site even with the right token', async () => {
    const { response } = await sdk.rotateApplicationKey({
      client: user.client,
      headers: { ...user.csrf, Origin: 'https://evil.example' } as { 'X-CSRF-Token': string },
      path: { applicationId },
    });
    expect(response.status).toBe(403);
  });

  it("accepts the server's own origin", async () => {
    const { response } = await sdk.logIn({
      client: user.client,
      headers: { Origin: server.url },
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
  });
});
