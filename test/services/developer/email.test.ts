import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { findAccountId, markAccountEmailVerified } from '../../../src/accounts/accounts.js';
import { sha256Hex } from '../../../src/platform/security/secrets.js';
import type { TestServer } from '../../support/server.js';
import {
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
  type DashboardUser,
} from './support/dashboard.js';
import { startMailbox, type LinkKind, type Mailbox } from './support/mailbox.js';

let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startDashboardServer({ SMTP_URL: mailbox.url, DEVELOPER_KEY_ROTATIONS_PER_DAY: '3' });
});

afterAll(async () => {
  await server?.close();
  await mailbox?.close();
});

/** The next message to an address (waits for it), and the token of its dashboard link. */
const nextMail = (to: string, kind: LinkKind) => mailbox.nextLink(to, kind);

const application = { name: 'Weather widget', description: '', website_url: 'https://weather.example.com' };

describe('verified accounts', () => {
  let user: DashboardUser;

  beforeAll(async () => {
    user = await signedUpUser(server, uniqueEmail('verify'), { verified: false });
  });

  it('sends a verification link at sign-up, to the dashboard, whose token is stored only hashed', async () => {
    const { mail, link, token } = await nextMail(user.email, 'verify');
    expect(mail.subject).toContain('Verify your email address');
    expect(link.startsWith(`${server.config.publicUrl}/developers#verify=`)).toBe(true);
    const rows = await server.built.db
      .selectFrom('developer_email_tokens' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).toContain(sha256Hex(token));
    expect(user.session.email_verified).toBe(false);
  });

  it('refuses an application (and so a key) before the address is verified', async () => {
    const { error, response } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: application,
    });
    expect(response.status).toBe(403);
    expect(error).toEqual({
      error: 'Verify your email address first; follow the link we sent you',
      code: 'email_not_verified',
    });
  });

  it('resends a link (the earlier one stops working); the link verifies once, then the account may create applications', async () => {
    const earlier = await (async () => {
      const resent = await sdk.resendVerification({ client: user.client, headers: user.csrf });
      expect(resent.response.status).toBe(202);
      return (await nextMail(user.email, 'verify')).token;
    })();
    const resent = await sdk.resendVerification({ client: user.client, headers: user.csrf });
    expect(resent.response.status).toBe(202);
    const { token } = await nextMail(user.email, 'verify');

    const anonymous = await dashboardCaller(server);
    const stale = await sdk.verifyEmail({ client: anonymous.client, body: { token: earlier } });
    expect(stale.response.status).toBe(400);
    expect(stale.error).toMatchObject({ code: 'invalid_token' });

    const verified = await sdk.verifyEmail({ client: anonymous.client, body: { token } });
    expect(verified.response.status).toBe(200);
    expect(verified.data).toEqual({ email: user.email, email_verified: true });
    const again = await sdk.verifyEmail({ client: anonymous.client, body: { token } });
    expect(again.error).toMatchObject({ code: 'invalid_token' });

    expect((await sdk.getSession({ client: user.client })).data?.email_verified).toBe(true);
    const created = await sdk.createApplication({ client: user.client, headers: user.csrf, body: application });
    expect(created.response.status).toBe(201);
  });

  it('counts a new application against the daily new keys, as a rotation: deleting and recreating gets no more keys', async () => {
    // DEVELOPER_KEY_ROTATIONS_PER_DAY is 3 on this server; the test above created one application.
    const listed = await sdk.listApplications({ client: user.client });
    const id = listed.data!.applications[0]!.id;
    expect(
      (await sdk.deleteApplication({ client: user.client, headers: user.csrf, path: { applicationId: id } })).response
        .status,
    ).toBe(204);
    for (let round = 0; round < 2; round++) {
      const created = await sdk.createApplication({ client: user.client, headers: user.csrf, body: application });
      expect(created.response.status).toBe(201);
      const applicationId = created.data!.application.id;
      await sdk.deleteApplication({ client: user.client, headers: user.csrf, path: { applicationId } });
    }
    const refused = await sdk.createApplication({ client: user.client, headers: user.csrf, body: application });
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.error).toMatchObject({ code: 'rate_limit_exceeded' });
  });
});

describe('the account’s own record of verification (src/accounts), which the dashboard keeps no copy of', () => {
  it('is what the dashboard gates on: marked by the accounts alone, the account may create applications; cleared, it may neither create one nor set an OAuth client, and may ask for a link again', async () => {
    const user = await signedUpUser(server, uniqueEmail('record'), { verified: false });
    await nextMail(user.email, 'verify');
    const accountId = (await findAccountId(server.built.db, user.email))!;
    await markAccountEmailVerified(server.built.db, accountId, new Date().toISOString());
    expect((await sdk.getSession({ client: user.client })).data?.email_verified).toBe(true);
    const created = await sdk.createApplication({ client: user.client, headers: user.csrf, body: application });
    expect(created.response.status).toBe(201);

    // No step of the platform unverifies an address: the test clears the account's record itself.
    await server.built.db
      .updateTable('accounts')
      .set({ email_verified_at: null })
      .where('id', '=', accountId)
      .execute();
    expect((await sdk.getSession({ client: user.client })).data?.email_verified).toBe(false);
    const refused = await sdk.createApplication({ client: user.client, headers: user.csrf, body: application });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'email_not_verified' });
    const client = await sdk.setOAuthClient({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: created.data!.application.id },
      body: { redirect_uris: ['https://weather.example.com/cb'], javascript_origins: [] },
    });
    expect(client.response.status).toBe(403);
    expect(client.error).toMatchObject({ code: 'email_not_verified' });
    // Only an unverified address gets a link: one comes.
    expect((await sdk.resendVerification({ client: user.client, headers: user.csrf })).response.status).toBe(202);
    const { token } = await nextMail(user.email, 'verify');
    const anonymous = await dashboardCaller(server);
    expect((await sdk.verifyEmail({ client: anonymous.client, body: { token } })).response.status).toBe(200);
    expect((await sdk.getSession({ client: user.client })).data?.email_verified).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same for any address, mails a single-use link, and a new password ends every session', async () => {
    const user = await signedUpUser(server, uniqueEmail('reset'));
    const other = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: other.client, body: { email: user.email, password: GOOD_PASSWORD } })).response.status,
    ).toBe(200);

    const anonymous = await dashboardCaller(server);
    const unknown = await sdk.requestPasswordReset({
      client: anonymous.client,
      body: { email: uniqueEmail('nobody') },
    });
    const known = await sdk.requestPasswordReset({
      client: anonymous.client,
      body: { email: user.email.toUpperCase() },
    });
    expect(unknown.response.status).toBe(202);
    expect(known.response.status).toBe(202);
    expect(known.data).toEqual(unknown.data);

    const { mail, token } = await nextMail(user.email, 'reset');
    expect(mail.subject).toContain('Set a new password');

    const weak = await sdk.resetPassword({ client: anonymous.client, body: { token, password: 'password1234' } });
    expect(weak.response.status).toBe(400);
    expect(weak.error).toMatchObject({ code: 'weak_password' });

    const newPassword = 'purple walrus ladder 77';
    const reset = await sdk.resetPassword({ client: anonymous.client, body: { token, password: newPassword } });
    expect(reset.response.status).toBe(204);
    const reused = await sdk.resetPassword({ client: anonymous.client, body: { token, password: newPassword } });
    expect(reused.error).toMatchObject({ code: 'invalid_token' });

    expect((await sdk.getSession({ client: user.client })).response.status).toBe(401);
    expect((await sdk.getSession({ client: other.client })).response.status).toBe(401);
    const old = await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: GOOD_PASSWORD } });
    expect(old.response.status).toBe(401);
    const fresh = await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: newPassword } });
    expect(fresh.response.status).toBe(200);
  });

  it('verifies the address of an account that had not verified it: the link was opened there', async () => {
    const user = await signedUpUser(server, uniqueEmail('reset-unverified'), { verified: false });
    expect(user.session.email_verified).toBe(false);
    const anonymous = await dashboardCaller(server);
    await sdk.requestPasswordReset({ client: anonymous.client, body: { email: user.email } });
    const { token } = await nextMail(user.email, 'reset');
    const newPassword = 'purple walrus ladder 78';
    expect(
      (await sdk.resetPassword({ client: anonymous.client, body: { token, password: newPassword } })).response.status,
    ).toBe(204);
    const logIn = await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: newPassword } });
    expect(logIn.data).toMatchObject({ email: user.email, email_verified: true });
  });

  it('refuses a made-up token', async () => {
    const anonymous = await dashboardCaller(server);
    const { error, response } = await sdk.resetPassword({
      client: anonymous.client,
      body: { token: 'A'.repeat(43), password: 'purple walrus ladder 77' },
    });
    expect(response.status).toBe(400);
    expect(error).toEqual({ error: 'This link is invalid, used or expired; ask for a new one', code: 'invalid_token' });
  });
});

describe('sessions', () => {
  it('lists the account’s sessions with the current one marked, and ends another one', async () => {
    const user = await signedUpUser(server, uniqueEmail('sessions'));
    const laptop = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: laptop.client, body: { email: user.email, password: GOOD_PASSWORD } })).response
        .status,
    ).toBe(200);

    const { data } = await sdk.listSessions({ client: user.client });
    expect(data!.sessions).toHaveLength(2);
    expect(data!.sessions.filter((session) => session.current)).toHaveLength(1);
    const elsewhere = data!.sessions.find((session) => !session.current)!;
    expect(elsewhere.id).toMatch(/^[0-9a-f]{32}$/);

    const ended = await sdk.endSession({ client: user.client, headers: user.csrf, path: { sessionId: elsewhere.id } });
    expect(ended.response.status).toBe(204);
    expect((await sdk.getSession({ client: laptop.client })).response.status).toBe(401);
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);

    const gone = await sdk.endSession({ client: user.client, headers: user.csrf, path: { sessionId: elsewhere.id } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: 'Session not found', code: 'not_found' });
  });
});

describe('without SMTP_URL', () => {
  it('writes each message, link included, to the log at info level, and the answer says where to find it', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const { startServer } = await import('../../support/server.js');
    const local = await startServer({}, { logger });
    try {
      const caller = await dashboardCaller(local);
      const email = uniqueEmail('local');
      const { data } = await sdk.signUp({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
      expect(data?.message).toContain('SMTP_URL is not set');
      let logged: { level: number; msg: string } | undefined;
      for (let waited = 0; !logged && waited < 2000; waited += 20) {
        logged = lines
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .find((line) => line.msg.includes('#verify='));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(logged?.level).toBe(30);
      const token = /#verify=([A-Za-z0-9_-]+)/.exec(logged!.msg)![1]!;
      expect((await sdk.verifyEmail({ client: caller.client, body: { token } })).response.status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('in production (MAIL_TO_LOG=true) logs the message, but no answer says a link is in the log', async () => {
    const { startServer } = await import('../../support/server.js');
    const production = await startServer({
      NODE_ENV: 'production',
      MAIL_TO_LOG: 'true',
      COUNTER_KEY_SECRET: 'a production secret of at least 32 characters',
    });
    try {
      const caller = await dashboardCaller(production);
      const email = uniqueEmail('production');
      const signUp = await sdk.signUp({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
      const reset = await sdk.requestPasswordReset({ client: caller.client, body: { email } });
      const user = await sdk.logIn({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
      const resent = await sdk.resendVerification({
        client: caller.client,
        headers: { 'X-CSRF-Token': user.data!.csrf_token },
      });
      for (const answer of [signUp, reset, resent]) {
        expect(answer.response.status).toBe(202);
        expect(answer.data?.message).not.toMatch(/SMTP_URL|server log/);
      }
    } finally {
      await production.close();
    }
  });
});
