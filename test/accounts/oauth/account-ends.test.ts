import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { Database } from '../../../src/app.js';
import { DEMO_PASSWORD } from '../../../src/services/developer/demo.js';
import { adminInProcess } from '../../support/admin.js';
import type { TestServer } from '../../support/server.js';
import {
  dashboardCaller,
  signedUpUser,
  uniqueEmail,
  type DashboardUser,
} from '../../services/developer/support/dashboard.js';
import { startMailbox, type Mailbox } from '../../services/developer/support/mailbox.js';
import {
  authorizedCallback,
  checkedFetch,
  personOf,
  redeem,
  refresh,
  registeredApp,
  startOAuthServer,
} from './support.js';

/**
 * What ends an app's access besides a revocation: the developer deleting the
 * account that owns the app, and the person changing their password,
 * resetting it or moving their address. Each ends the grants and their
 * tokens (refresh tokens too) at once, though the instance remembers the
 * token (the caches are told, not waited out).
 */
const NEW_PASSWORD = 'amber lantern orchard 58';
let server: TestServer;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startOAuthServer({ SMTP_URL: mailbox.url, ACCESS_TOKEN_CACHE_MS: '60000', API_KEY_CACHE_MS: '60000' });
});
afterAll(async () => {
  await server?.close();
  await mailbox?.close();
});

const readPost = (token: string) =>
  checkedFetch(`${server.url}/rest/v1.1/sites/1/posts/108`, { headers: { Authorization: `Bearer ${token}` } });
const ADA_HASH = createHash('sha256').update('ada@demo.example.com').digest('hex');
const readProfileApi = (token: string) =>
  checkedFetch(`${server.url}/v3/me/associated-email?email_hash=${ADA_HASH}`, {
    headers: { Authorization: `Bearer ${token}` },
  });

describe('deleting a developer account', () => {
  it('ends at once the tokens people gave its apps, refresh tokens included', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const flow = await authorizedCallback(server, app, ada, 'publishing:read', [{ id: 1, access: 'read' }]);
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    expect((await readPost(tokens.access_token)).status).toBe(200);
    const deleted = await sdk.deleteAccount({
      client: app.developer.client,
      headers: app.developer.csrf,
      body: { password: app.developer.password },
    });
    expect(deleted.response.status).toBe(204);
    expect((await readPost(tokens.access_token)).status).toBe(401);
    // The app is gone with its account: its refresh token is refused, the client unknown.
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_client' });
    const db = server.built.db;
    expect(
      await db.selectFrom('oauth_records').select('id_hash').where('client_id', '=', app.client.client_id).execute(),
    ).toEqual([]);
  });

  it('revokes its publishing user’s command-line tokens', async () => {
    const created = await adminInProcess(
      server.built.db as Kysely<Database>,
      'tokens',
      'create',
      '--user',
      'subscriber',
    );
    const token = created.stdout.trim().split('\n').at(-1)!;
    expect((await readPost(token)).status).toBe(200);
    // Deleted from the dashboard: the publishing module's farewell revokes them before the account goes.
    const sam = await personOf(server, 'sam@demo.example.com');
    const deleted = await sdk.deleteAccount({
      client: sam.client,
      headers: sam.csrf,
      body: { password: DEMO_PASSWORD },
    });
    expect(deleted.response.status).toBe(204);
    expect((await readPost(token)).status).toBe(401);
    const rows = await (server.built.db as Kysely<Database>)
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('user_id', '=', 5)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
  });
});

/** A person with a password, and an app's profile-scope tokens for them, in use (so this instance remembers them). */
async function appTokensOf(person: DashboardUser) {
  const app = await registeredApp(server);
  const flow = await authorizedCallback(server, app, { ...person, accountId: '' }, 'profile', []);
  const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
  expect((await readProfileApi(tokens.access_token)).status).toBe(200);
  return { app, tokens };
}

async function expectEnded(
  app: Awaited<ReturnType<typeof registeredApp>>,
  tokens: { access_token: string; refresh_token?: string },
) {
  expect((await readProfileApi(tokens.access_token)).status).toBe(401);
  await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
}

describe('the person’s credentials changing', () => {
  it('a password change ends the apps’ grants and tokens at once', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-password'));
    const { app, tokens } = await appTokensOf(person);
    const changed = await sdk.changePassword({
      client: person.client,
      headers: person.csrf,
      body: { current_password: person.password, new_password: NEW_PASSWORD },
    });
    expect(changed.response.status).toBe(204);
    await expectEnded(app, tokens);
    const listed = await sdk.listAuthorizations({ client: person.client });
    expect(listed.data?.authorizations).toEqual([]);
  });

  it('a password reset ends them', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-reset'));
    const { app, tokens } = await appTokensOf(person);
    const anonymous = await dashboardCaller(server);
    await sdk.requestPasswordReset({ client: anonymous.client, body: { email: person.email } });
    const { token } = await mailbox.nextLink(person.email, 'reset');
    expect(
      (await sdk.resetPassword({ client: anonymous.client, body: { token, password: NEW_PASSWORD } })).response.status,
    ).toBe(204);
    await expectEnded(app, tokens);
  });

  it('an email change ends them', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-move'));
    const { app, tokens } = await appTokensOf(person);
    const newEmail = uniqueEmail('oauth-moved');
    const asked = await sdk.requestEmailChange({
      client: person.client,
      headers: person.csrf,
      body: { new_email: newEmail, password: person.password },
    });
    expect(asked.response.status).toBe(202);
    const { token } = await mailbox.nextLink(newEmail, 'email');
    const anonymous = await dashboardCaller(server);
    expect((await sdk.confirmEmailChange({ client: anonymous.client, body: { token } })).response.status).toBe(200);
    await expectEnded(app, tokens);
  });
});

/** A second dashboard session of the person (another browser), and whether a session still answers. */
async function otherSession(person: DashboardUser, password = person.password) {
  const browser = await dashboardCaller(server);
  const { response } = await sdk.logIn({ client: browser.client, body: { email: person.email, password } });
  expect(response.status).toBe(200);
  return browser;
}
const sessionAnswers = async (caller: { client: DashboardUser['client'] }) =>
  (await sdk.getSession({ client: caller.client })).response.status;

/**
 * Issue 52, item 5: one flow ends what the credentials opened
 * (`endWhatCredentialsOpened`), on every path that changes them: each path
 * below ends the person's sessions and every app's access and refresh
 * tokens. The admin command runs outside the servers: its tokens are ended
 * in the store, so these are not used before it (an instance that had used
 * them would ask again within its token cache's bound).
 */
describe('every path that changes credentials ends the sessions and the OAuth tokens', () => {
  it('`accounts password` (the admin command)', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-admin'));
    const app = await registeredApp(server);
    const flow = await authorizedCallback(server, app, { ...person, accountId: '' }, 'profile', []);
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    const set = await adminInProcess(
      server.built.db as Kysely<Database>,
      'accounts',
      'password',
      '--email',
      person.email,
    );
    expect(set.code).toBe(0);
    await expectEnded(app, tokens);
    expect(await sessionAnswers(person)).toBe(401);
  });

  it('the dashboard\u2019s change: every other session ends, the one that changed it stays', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-sessions'));
    const other = await otherSession(person);
    expect(await sessionAnswers(other)).toBe(200);
    const { app, tokens } = await appTokensOf(person);
    const changed = await sdk.changePassword({
      client: person.client,
      headers: person.csrf,
      body: { current_password: person.password, new_password: NEW_PASSWORD },
    });
    expect(changed.response.status).toBe(204);
    await expectEnded(app, tokens);
    expect(await sessionAnswers(other)).toBe(401);
    expect(await sessionAnswers(person)).toBe(200);
  });

  it('the reset link: every session ends', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-reset-sessions'));
    const other = await otherSession(person);
    const { app, tokens } = await appTokensOf(person);
    const anonymous = await dashboardCaller(server);
    await sdk.requestPasswordReset({ client: anonymous.client, body: { email: person.email } });
    const { token } = await mailbox.nextLink(person.email, 'reset');
    expect(
      (await sdk.resetPassword({ client: anonymous.client, body: { token, password: NEW_PASSWORD } })).response.status,
    ).toBe(204);
    await expectEnded(app, tokens);
    expect(await sessionAnswers(other)).toBe(401);
    expect(await sessionAnswers(person)).toBe(401);
  });

  it('deleting the account: the apps the person authorized lose their tokens, and every session ends', async () => {
    const person = await signedUpUser(server, uniqueEmail('oauth-deleted'));
    const other = await otherSession(person);
    const { app, tokens } = await appTokensOf(person);
    const deleted = await sdk.deleteAccount({
      client: person.client,
      headers: person.csrf,
      body: { password: person.password },
    });
    expect(deleted.response.status).toBe(204);
    expect((await readProfileApi(tokens.access_token)).status).toBe(401);
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await sessionAnswers(other)).toBe(401);
  });
});
