import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { sha256Hex } from '../../../src/platform/security/secrets.js';
import type { TestServer } from '../../support/server.js';
import {
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
} from './support/dashboard.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';

/** "Email change confirmed at the new address", over a real SMTP server in this process, on each store backend. */
let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startDashboardServer({ SMTP_URL: mailbox.url });
});

afterAll(async () => {
  await server?.close();
  await mailbox?.close();
});

const logIn = async (email: string, password = GOOD_PASSWORD) => {
  const caller = await dashboardCaller(server);
  return (await sdk.logIn({ client: caller.client, body: { email, password } })).response.status;
};

describe('changing the email address', () => {
  it('moves the account only when the link sent to the new address is opened: verified, every session ended, the old address told', async () => {
    // Unverified: a typo at sign-up is the commonest reason to change the address.
    const user = await signedUpUser(server, uniqueEmail('mover'), { verified: false });
    const laptop = await dashboardCaller(server);
    expect(
      (await sdk.logIn({ client: laptop.client, body: { email: user.email, password: GOOD_PASSWORD } })).response
        .status,
    ).toBe(200);
    const newEmail = uniqueEmail('moved');

    const asked = await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: newEmail.toUpperCase(), password: GOOD_PASSWORD },
    });
    expect(asked.response.status).toBe(202);
    expect(asked.data).toEqual({
      status: 'accepted',
      message: `We sent a link to ${newEmail}; your address changes when you open it.`,
    });

    const { mail, link, token } = await mailbox.nextLink(newEmail, 'email');
    expect(mail.subject).toContain('Confirm your new email address');
    expect(mail.text).toContain(user.email);
    expect(link.startsWith(`${server.config.publicUrl}/developers#email=`)).toBe(true);
    const rows = await server.built.db
      .selectFrom('developer_email_tokens' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).toContain(sha256Hex(token));

    // Nothing changes until the link is opened.
    expect((await sdk.getSession({ client: user.client })).data?.email).toBe(user.email);
    expect(await logIn(newEmail)).toBe(401);

    const anonymous = await dashboardCaller(server);
    const confirmed = await sdk.confirmEmailChange({ client: anonymous.client, body: { token } });
    expect(confirmed.response.status).toBe(200);
    expect(confirmed.data).toEqual({ email: newEmail, email_verified: true });
    const again = await sdk.confirmEmailChange({ client: anonymous.client, body: { token } });
    expect(again.response.status).toBe(400);
    expect(again.error).toEqual({
      error: 'This link is invalid, used or expired; ask for a new one',
      code: 'invalid_token',
    });

    expect((await sdk.getSession({ client: user.client })).response.status).toBe(401);
    expect((await sdk.getSession({ client: laptop.client })).response.status).toBe(401);
    expect(await logIn(user.email)).toBe(401);
    const fresh = await dashboardCaller(server);
    const session = await sdk.logIn({ client: fresh.client, body: { email: newEmail, password: GOOD_PASSWORD } });
    expect(session.data).toMatchObject({ email: newEmail, email_verified: true });

    const changed = 'The email address of your developer dashboard account changed';
    const notice = await mailbox.next(user.email, (candidate) => candidate.subject === changed);
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toMatch(/#[a-z]+=/);
  });

  it('asks for the current password, counted like a log-in, and refuses the address the account already has', async () => {
    const user = await signedUpUser(server, uniqueEmail('careful'));
    const wrong = await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: uniqueEmail('elsewhere'), password: 'not the password at all' },
    });
    expect(wrong.response.status).toBe(403);
    expect(wrong.error).toEqual({ error: 'The password is incorrect', code: 'invalid_credentials' });
    // The session is fine: a wrong password is not a lost session.
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);

    const same = await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: user.email, password: GOOD_PASSWORD },
    });
    expect(same.response.status).toBe(400);
    expect(same.error).toEqual({ error: 'This is already your address', code: 'invalid_request' });

    const forged = await sdk.requestEmailChange({
      client: user.client,
      headers: { 'X-CSRF-Token': undefined as unknown as string },
      body: { new_email: uniqueEmail('forged'), password: GOOD_PASSWORD },
    });
    expect(forged.response.status).toBe(403);
    expect(forged.error).toMatchObject({ code: 'csrf_failed' });
  });

  it('stops password guessing through it at the log-in limit', async () => {
    const user = await signedUpUser(server, uniqueEmail('guessed'));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const { response } = await sdk.requestEmailChange({
        client: user.client,
        headers: user.csrf,
        body: { new_email: uniqueEmail('target'), password: `guess number ${attempt}` },
      });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT is 5 by default.
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
  });

  it('answers the same for an address that has an account, tells that address’s owner instead, and changes nothing', async () => {
    const owner = await signedUpUser(server, uniqueEmail('owner'));
    const user = await signedUpUser(server, uniqueEmail('asker'));
    const free = await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: uniqueEmail('free'), password: GOOD_PASSWORD },
    });
    const taken = await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: owner.email, password: GOOD_PASSWORD },
    });
    expect(taken.response.status).toBe(free.response.status);
    expect(taken.data?.message.replace(owner.email, '<address>')).toBe(
      free.data?.message.replace(/\S+@example\.com/, '<address>'),
    );

    const told = await mailbox.next(
      owner.email,
      (mail) => mail.subject?.includes('already has a developer dashboard account') ?? false,
    );
    expect(told.text).not.toMatch(/#[a-z]+=/);
    expect(
      mailbox.inbox.some((mail) => JSON.stringify(mail.to).includes(owner.email) && mail.text?.includes('#email=')),
    ).toBe(false);
    expect((await sdk.getSession({ client: user.client })).data?.email).toBe(user.email);
    expect((await sdk.getSession({ client: owner.client })).response.status).toBe(200);
  });

  it('keeps the address when the new one got an account of its own before the link was opened (409), and an earlier link stops working', async () => {
    const user = await signedUpUser(server, uniqueEmail('late'));
    const newEmail = uniqueEmail('claimed');
    const ask = () =>
      sdk.requestEmailChange({
        client: user.client,
        headers: user.csrf,
        body: { new_email: newEmail, password: GOOD_PASSWORD },
      });
    expect((await ask()).response.status).toBe(202);
    const earlier = (await mailbox.nextLink(newEmail, 'email')).token;
    expect((await ask()).response.status).toBe(202);
    const { token } = await mailbox.nextLink(newEmail, 'email');
    const anonymous = await dashboardCaller(server);
    expect((await sdk.confirmEmailChange({ client: anonymous.client, body: { token: earlier } })).error).toMatchObject({
      code: 'invalid_token',
    });

    await signedUpUser(server, newEmail);
    const refused = await sdk.confirmEmailChange({ client: anonymous.client, body: { token } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toEqual({
      error: 'This address already has an account; log in with it instead',
      code: 'email_taken',
    });
    expect((await sdk.getSession({ client: user.client })).data?.email).toBe(user.email);
  });

  it('ends the reset links mailed to the old address', async () => {
    const user = await signedUpUser(server, uniqueEmail('leaving'));
    const anonymous = await dashboardCaller(server);
    await sdk.requestPasswordReset({ client: anonymous.client, body: { email: user.email } });
    const reset = await mailbox.nextLink(user.email, 'reset');
    const newEmail = uniqueEmail('arrived');
    await sdk.requestEmailChange({
      client: user.client,
      headers: user.csrf,
      body: { new_email: newEmail, password: GOOD_PASSWORD },
    });
    const { token } = await mailbox.nextLink(newEmail, 'email');
    expect((await sdk.confirmEmailChange({ client: anonymous.client, body: { token } })).response.status).toBe(200);

    const stale = await sdk.resetPassword({
      client: anonymous.client,
      body: { token: reset.token, password: 'purple walrus ladder 77' },
    });
    expect(stale.error).toMatchObject({ code: 'invalid_token' });
  });

  it('sends at most 5 emails an hour per account, and per new address whoever asks', async () => {
    const user = await signedUpUser(server, uniqueEmail('eager'));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const { response } = await sdk.requestEmailChange({
        client: user.client,
        headers: user.csrf,
        body: { new_email: uniqueEmail(`eager${attempt}`), password: GOOD_PASSWORD },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);

    const victim = uniqueEmail('victim');
    const counts: number[] = [];
    for (let asker = 0; asker < 6; asker++) {
      const other = await signedUpUser(server, uniqueEmail(`asker${asker}`));
      const { response, error } = await sdk.requestEmailChange({
        client: other.client,
        headers: other.csrf,
        body: { new_email: victim, password: GOOD_PASSWORD },
      });
      counts.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(error).toEqual({ error: 'Too many emails asked for; try again later', code: 'rate_limit_exceeded' });
      }
    }
    expect(counts).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
