import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';

/** The answer to every valid sign-up, whatever the address. */
const ACCEPTED = {
  status: 'accepted',
  message:
    'If this address can have an account, it now has one with this password; log in to continue. We sent a link to verify the address.' +
    ' This server sends no email (SMTP_URL is not set): the message, with its link, is in the server log.',
};
import {
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
} from './support/dashboard.js';

/**
 * Accounts and sessions: sign up, log in, log out, the current session; the
 * session cookie's flags, and what the store keeps of passwords and tokens.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer();
});
afterAll(() => server.close());

describe('sign up', () => {
  it('creates the account (202, no session); logging in then sets an HttpOnly, SameSite=Lax cookie and answers the session', async () => {
    const caller = await dashboardCaller(server);
    const email = uniqueEmail('Dana');
    const signUp = await sdk.signUp({
      client: caller.client,
      body: { email: email.toUpperCase(), password: GOOD_PASSWORD },
    });
    expect(signUp.response.status).toBe(202);
    expect(signUp.data).toEqual(ACCEPTED);
    expect(signUp.response.headers.get('set-cookie')).toBeNull();
    const { data, response } = await sdk.logIn({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
    expect(response.status).toBe(200);
    expect(data?.email).toBe(email.toLowerCase());
    expect(data?.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(data!.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(12 * 3600_000);

    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^dev_session=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(['Path=/', 'Max-Age=43200', 'HttpOnly', 'SameSite=Lax']);
    expect(response.headers.get('cache-control')).toBe('no-store');

    const session = await sdk.getSession({ client: caller.client });
    expect(session.response.status).toBe(200);
    expect(session.data).toEqual(data);
  });

  it('answers an address that already has an account exactly as a new one, and changes nothing (no enumeration)', async () => {
    const user = await signedUpUser(server);
    const again = await dashboardCaller(server);
    const other = 'another violet tractor 77';
    const { data, response } = await sdk.signUp({
      client: again.client,
      body: { email: user.email.toUpperCase(), password: other },
    });
    expect(response.status).toBe(202);
    expect(data).toEqual(ACCEPTED);
    expect(response.headers.get('set-cookie')).toBeNull();
    // The account kept its password: the new one does not log in, the old one does.
    expect(
      (await sdk.logIn({ client: again.client, body: { email: user.email, password: other } })).response.status,
    ).toBe(401);
    expect(
      (await sdk.logIn({ client: again.client, body: { email: user.email, password: user.password } })).response.status,
    ).toBe(200);
  });

  it('gives nobody an account made outside the dashboard (no email verification to claim it)', async () => {
    const caller = await dashboardCaller(server);
    const { data, response } = await sdk.signUp({
      client: caller.client,
      body: { email: 'alex@example.com', password: GOOD_PASSWORD },
    });
    expect(response.status).toBe(202);
    expect(data).toEqual(ACCEPTED);
    expect(
      (await sdk.logIn({ client: caller.client, body: { email: 'alex@example.com', password: GOOD_PASSWORD } }))
        .response.status,
    ).toBe(401);
  });

  it.each([
    ['a common password', 'password1234', 'it is too similar to a very common password'],
    ['a common password with a little around it', 'Qwerty!2024', null],
    ['too few different characters', 'abababababababab', 'it repeats a group of characters'],
    ['the email name in it', 'mydana-mail-2026!', 'it contains your email address'],
  ])('refuses a weak password: %s', async (_case, password, reason) => {
    const caller = await dashboardCaller(server);
    const email = 'dana-mail@example.com';
    const { error, response } = await sdk.signUp({ client: caller.client, body: { email, password } });
    expect(response.status).toBe(400);
    if (reason) expect(error).toEqual({ error: `Choose a harder password: ${reason}`, code: 'weak_password' });
    else expect(error?.code).toBe('invalid_request');
  });

  it('refuses a password shorter than 12 characters by the contract', async () => {
    const caller = await dashboardCaller(server);
    const { error, response } = await sdk.signUp({
      client: caller.client,
      body: { email: uniqueEmail(), password: 'short pw 1' },
    });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: 'Invalid body field password: must NOT have fewer than 12 characters',
      code: 'invalid_request',
    });
  });

  it('refuses an address that is not an email address', async () => {
    const caller = await dashboardCaller(server);
    const { error, response } = await sdk.signUp({
      client: caller.client,
      body: { email: 'not-an-address', password: GOOD_PASSWORD },
    });
    expect(response.status).toBe(400);
    expect(error?.error).toMatch(/^Invalid body field email: /);
  });
});

describe('log in', () => {
  it('starts a new session with the right password', async () => {
    const user = await signedUpUser(server);
    const caller = await dashboardCaller(server);
    const { data, response } = await sdk.logIn({
      client: caller.client,
      body: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(response.status).toBe(200);
    expect(data?.email).toBe(user.email);
    expect(response.headers.get('set-cookie')).toMatch(
      /^dev_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/,
    );
    expect(caller.cookie()).not.toBe(user.cookie());
    expect(data?.csrf_token).not.toBe(user.session.csrf_token);
  });

  it('answers a wrong password and an unknown address the same way', async () => {
    const user = await signedUpUser(server);
    const caller = await dashboardCaller(server);
    const wrong = await sdk.logIn({
      client: caller.client,
      body: { email: user.email, password: 'not the password at all' },
    });
    const unknown = await sdk.logIn({
      client: caller.client,
      body: { email: uniqueEmail('nobody'), password: user.password },
    });
    for (const { error, response } of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(error).toEqual({ error: 'Email address or password is incorrect', code: 'invalid_credentials' });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect(caller.cookie()).toBeUndefined();
  });

  it('ends the session the browser already held (no session fixation)', async () => {
    const user = await signedUpUser(server);
    const planted = user.cookie();
    const { response } = await sdk.logIn({ client: user.client, body: { email: user.email, password: user.password } });
    expect(response.status).toBe(200);
    const attacker = await dashboardCaller(server);
    attacker.setCookie(planted);
    const { error, response: refused } = await sdk.getSession({ client: attacker.client });
    expect(refused.status).toBe(401);
    expect(error?.code).toBe('unauthenticated');
  });
});

describe('the current session and log out', () => {
  it('answers 204 without a session cookie: no session, and no error for a browser to log', async () => {
    const caller = await dashboardCaller(server);
    const { response } = await sdk.getSession({ client: caller.client });
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('still refuses every other operation without a session cookie: 401', async () => {
    const caller = await dashboardCaller(server);
    const { error, response } = await sdk.listApplications({ client: caller.client });
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'Log in to use the developer dashboard', code: 'unauthenticated' });
  });

  it.each([
    ['malformed', 'not a token'],
    ['unknown', 'A'.repeat(43)],
  ])('answers 401 for a %s session cookie', async (_case, token) => {
    const caller = await dashboardCaller(server);
    caller.setCookie(token);
    const { error, response } = await sdk.listApplications({ client: caller.client });
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'Your session has ended; log in again', code: 'unauthenticated' });
  });

  it('answers 401 once the session has expired', async () => {
    const user = await signedUpUser(server);
    const tokenHash = createHash('sha256').update(user.cookie()!).digest('hex');
    await server.built.db
      .updateTable('developer_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', tokenHash)
      .execute();
    const { error, response } = await sdk.getSession({ client: user.client });
    expect(response.status).toBe(401);
    expect(error?.code).toBe('unauthenticated');
  });

  it('logs out: the cookie is cleared and the session no longer works, even if the cookie is kept', async () => {
    const user = await signedUpUser(server);
    const token = user.cookie();
    const { response } = await sdk.logOut({ client: user.client, headers: user.csrf });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBe('dev_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    expect(user.cookie()).toBeUndefined();
    user.setCookie(token);
    const { response: after } = await sdk.getSession({ client: user.client });
    expect(after.status).toBe(401);
  });
});

describe('what the store keeps', () => {
  it('keeps the password as a salted scrypt hash and the session token as its SHA-256 only', async () => {
    const user = await signedUpUser(server);
    const other = await signedUpUser(server);
    const credentials = await server.built.db
      .selectFrom('developer_credentials')
      .innerJoin('accounts', 'accounts.id', 'developer_credentials.account_id')
      .select(['accounts.email', 'developer_credentials.password_hash'])
      .where('accounts.email', 'in', [user.email, other.email])
      .execute();
    expect(credentials).toHaveLength(2);
    for (const { password_hash } of credentials) {
      // At the server's cost (the test cost here: `startServer`).
      const cost = server.config.developer.passwordCost;
      expect(password_hash).toMatch(
        new RegExp(`^\\$scrypt\\$ln=${cost},r=8,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}$`),
      );
      expect(password_hash).not.toContain(GOOD_PASSWORD);
    }
    // The same password, two salts.
    expect(credentials[0]!.password_hash).not.toBe(credentials[1]!.password_hash);

    const sessions = await server.built.db.selectFrom('developer_sessions').select('token_hash').execute();
    const hashes = sessions.map((row) => row.token_hash);
    expect(hashes).toContain(createHash('sha256').update(user.cookie()!).digest('hex'));
    expect(hashes).not.toContain(user.cookie());
  });
});

describe('the idle timeout (DEVELOPER_SESSION_IDLE_SECONDS, 30 minutes)', () => {
  /** Moves a session's last use `minutes` into the past, as if nobody had used it since. */
  const lastSeen = async (user: { cookie(): string | undefined }, minutes: number) => {
    const tokenHash = createHash('sha256').update(user.cookie()!).digest('hex');
    await server.built.db
      .updateTable('developer_sessions')
      .set({ last_seen_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .where('token_hash', '=', tokenHash)
      .execute();
    return tokenHash;
  };

  it('refuses a session unused for longer, though its lifetime is not over', async () => {
    const user = await signedUpUser(server);
    await lastSeen(user, 31);
    const { response, error } = await sdk.getSession({ client: user.client });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: 'unauthenticated' });
  });

  it('keeps a session in use: each use (at most once a minute) starts the idle time again', async () => {
    const user = await signedUpUser(server);
    const tokenHash = await lastSeen(user, 29);
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(200);
    const row = await server.built.db
      .selectFrom('developer_sessions')
      .select('last_seen_at')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(row.last_seen_at!)).toBeLessThan(60_000);
  });

  it('a log-in forgets idle sessions', async () => {
    const idle = await signedUpUser(server);
    const tokenHash = await lastSeen(idle, 31);
    const user = await signedUpUser(server);
    expect(
      (await sdk.logIn({ client: user.client, body: { email: user.email, password: user.password } })).response.status,
    ).toBe(200);
    expect(
      await server.built.db
        .selectFrom('developer_sessions')
        .select('token_hash')
        .where('token_hash', '=', tokenHash)
        .execute(),
    ).toEqual([]);
  });
});

describe('sessions per account', () => {
  it('are at most 20: a log-in beyond them ends the oldest', async () => {
    const user = await signedUpUser(server);
    const first = user.cookie();
    for (let login = 0; login < 20; login++) {
      const device = await dashboardCaller(server);
      expect(
        (await sdk.logIn({ client: device.client, body: { email: user.email, password: user.password } })).response
          .status,
      ).toBe(200);
    }
    const { id: accountId } = await server.built.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const rows = await server.built.db
      .selectFrom('developer_sessions')
      .select('token_hash')
      .where('account_id', '=', accountId)
      .execute();
    expect(rows).toHaveLength(20);
    expect(rows.map((row) => row.token_hash)).not.toContain(createHash('sha256').update(first!).digest('hex'));
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(401);
  });
});

describe('housekeeping', () => {
  it('a successful log-in forgets expired sessions and ended attempt counts', async () => {
    const expired = await signedUpUser(server);
    const expiredHash = createHash('sha256').update(expired.cookie()!).digest('hex');
    await server.built.db
      .updateTable('developer_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', expiredHash)
      .execute();
    await server.built.db
      .insertInto('developer_login_attempts')
      .values({ key: 'email:ended', points: 3, expire: new Date(Date.now() - 1000).toISOString() })
      .execute();

    const user = await signedUpUser(server);
    expect(
      (await sdk.logIn({ client: user.client, body: { email: user.email, password: user.password } })).response.status,
    ).toBe(200);

    const sessions = await server.built.db
      .selectFrom('developer_sessions')
      .select('token_hash')
      .where('token_hash', '=', expiredHash)
      .execute();
    expect(sessions).toEqual([]);
    const counters = await server.built.db
      .selectFrom('developer_login_attempts')
      .select('key')
      .where('key', '=', 'email:ended')
      .execute();
    expect(counters).toEqual([]);
  });
});

describe('over HTTPS', () => {
  it('names the session cookie __Host-dev_session and marks it Secure when PUBLIC_URL is https', async () => {
    const secure = await startDashboardServer({ PUBLIC_URL: 'https://dashboard.example.com' });
    try {
      const user = await signedUpUser(secure);
      const { response } = await sdk.logIn({
        client: user.client,
        body: { email: user.email, password: user.password },
      });
      const cookie = response.headers.get('set-cookie')!;
      expect(cookie).toMatch(
        /^__Host-dev_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure$/,
      );
      // The browser sends it back under its own name: that is the session.
      const token = /^__Host-dev_session=([^;]+)/.exec(cookie)![1]!;
      const asBrowser = await sdk.getSession({
        client: user.client,
        headers: { cookie: `__Host-dev_session=${token}` },
      });
      expect(asBrowser.response.status).toBe(200);
      const { response: out } = await sdk.logOut({
        client: user.client,
        headers: { 'X-CSRF-Token': (await sdk.getSession({ client: user.client })).data!.csrf_token },
      });
      expect(out.headers.get('set-cookie')).toBe(
        '__Host-dev_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
      );
    } finally {
      await secure.close();
    }
  });
});
