import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import {
  createdApplication,
  dashboardCaller,
  GOOD_PASSWORD,
  profileWithKey,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
} from './support/dashboard.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';

/**
 * What a signed-in account may do to itself: change its password (the
 * current one again, other sessions ended, a notice mailed) and delete
 * itself (its keys, applications, sessions and profile gone at once). A
 * reset by link is noticed by mail too. Every message is real mail.
 */
let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startDashboardServer({ SMTP_URL: mailbox.url, PROFILE_LOOKUP_CACHE_MS: '0' });
});

afterAll(async () => {
  await server?.close();
  await mailbox?.close();
});

const NEW_PASSWORD = 'purple walrus ladder 77';

/** The next notice of a changed password to an address (waits for it). */
const passwordNotice = (to: string) =>
  mailbox.next(to, (mail) => mail.subject?.includes('password of your developer dashboard account changed') ?? false);

describe('changing the password while signed in', () => {
  it('needs the current password and a CSRF token, and refuses an easy new one', async () => {
    const user = await signedUpUser(server);
    const wrong = await sdk.changePassword({
      client: user.client,
      headers: user.csrf,
      body: { current_password: 'not my password at all', new_password: NEW_PASSWORD },
    });
    expect(wrong.response.status).toBe(403);
    expect(wrong.error).toEqual({ error: 'The password is incorrect', code: 'invalid_credentials' });
    const forged = await sdk.changePassword({
      client: user.client,
      headers: { 'X-CSRF-Token': undefined as unknown as string },
      body: { current_password: user.password, new_password: NEW_PASSWORD },
    });
    expect(forged.response.status).toBe(403);
    expect(forged.error).toMatchObject({ code: 'csrf_failed' });
    const weak = await sdk.changePassword({
      client: user.client,
      headers: user.csrf,
      body: { current_password: user.password, new_password: 'password1234' },
    });
    expect(weak.response.status).toBe(400);
    expect(weak.error).toMatchObject({ code: 'weak_password' });
    const anonymous = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: GOOD_PASSWORD } })).response
        .status,
    ).toBe(200);
  });

  it('ends every other session, keeps this one, and mails a notice', async () => {
    const user = await signedUpUser(server);
    const laptop = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: laptop.client, body: { email: user.email, password: user.password } })).response
        .status,
    ).toBe(200);

    const changed = await sdk.changePassword({
      client: user.client,
      headers: user.csrf,
      body: { current_password: user.password, new_password: NEW_PASSWORD },
    });
    expect(changed.response.status).toBe(204);

    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);
    expect((await sdk.getSession({ client: laptop.client })).response.status).toBe(401);
    const anonymous = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: GOOD_PASSWORD } })).response
        .status,
    ).toBe(401);
    expect(
      (await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: NEW_PASSWORD } })).response
        .status,
    ).toBe(200);
    const notice = await passwordNotice(user.email);
    expect(notice.text).toContain('was changed');
  });
});

describe('a password set by a reset link', () => {
  it('is noticed by mail to the address', async () => {
    const user = await signedUpUser(server, uniqueEmail('reset-notice'));
    const anonymous = await dashboardCaller(server);
    await sdk.requestPasswordReset({ client: anonymous.client, body: { email: user.email } });
    const { token } = await mailbox.nextLink(user.email, 'reset');
    expect(
      (await sdk.resetPassword({ client: anonymous.client, body: { token, password: NEW_PASSWORD } })).response.status,
    ).toBe(204);
    const notice = await passwordNotice(user.email);
    expect(notice.text).not.toMatch(/#reset=/);
  });
});

describe('deleting the account', () => {
  it('needs the current password: a wrong one deletes nothing', async () => {
    const user = await signedUpUser(server);
    const wrong = await sdk.deleteAccount({
      client: user.client,
      headers: user.csrf,
      body: { password: 'not my password at all' },
    });
    expect(wrong.response.status).toBe(403);
    expect(wrong.error).toMatchObject({ code: 'invalid_credentials' });
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);
  });

  it('removes its keys, applications, sessions and profile at once, and clears the cookie', async () => {
    const user = await signedUpUser(server);
    const { new_key } = await createdApplication(user);
    const laptop = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: laptop.client, body: { email: user.email, password: user.password } })).response
        .status,
    ).toBe(200);
    const db = server.built.db;
    const { id: accountId } = await db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    // A profile of the account's own, copied from the demo data's.
    const alex = await db.selectFrom('profiles').selectAll().where('slug', '=', 'alex').executeTakeFirstOrThrow();
    await db
      .insertInto('profiles')
      .values({ ...alex, account_id: accountId, slug: `gone-${accountId.slice(0, 8)}` })
      .execute();
    const profileUrl = `${server.url}/v3/profiles/gone-${accountId.slice(0, 8)}`;
    const checked = contractFetch(await contractChecker());
    expect((await checked(profileUrl)).status).toBe(200);
    expect((await profileWithKey(server, new_key.secret)).body).toHaveProperty('links');

    const deleted = await sdk.deleteAccount({
      client: user.client,
      headers: user.csrf,
      body: { password: user.password },
    });
    expect(deleted.response.status).toBe(204);
    expect(deleted.response.headers.get('set-cookie')).toBe('dev_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');

    // The key is refused at once: the caller is answered as anonymous.
    expect((await profileWithKey(server, new_key.secret)).body).not.toHaveProperty('links');
    expect((await checked(profileUrl)).status).toBe(404);
    expect((await sdk.getSession({ client: laptop.client })).response.status).toBe(401);
    const anonymous = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: anonymous.client, body: { email: user.email, password: user.password } })).response
        .status,
    ).toBe(401);
    for (const table of [
      'api_applications',
      'developer_sessions',
      'developer_credentials',
      'developer_email_tokens',
      'profiles',
    ] as const) {
      expect(await db.selectFrom(table).select('account_id').where('account_id', '=', accountId).execute()).toEqual([]);
    }
    expect(await db.selectFrom('accounts').select('id').where('id', '=', accountId).execute()).toEqual([]);
  });
});
