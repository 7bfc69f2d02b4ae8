import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { keyedHash, sha256Hex } from '../../../src/platform/security/secrets.js';
import type { TestServer } from '../../support/server.js';
import {
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  uniqueEmail,
} from './support/dashboard.js';

/**
 * "Login attempts rate limited": per email address and client address
 * together (failed log-ins) and per client address (failed log-ins and
 * sign-ups), in the shared store; a third party failing from elsewhere never
 * locks the owner out.
 */
const logIn = async (server: TestServer, email: string, password: string, from?: string) => {
  const caller = await dashboardCaller(server);
  return sdk.logIn({
    client: caller.client,
    body: { email, password },
    ...(from ? { headers: { 'X-Forwarded-For': from } } : {}),
  });
};

describe('per email address and client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDashboardServer({
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '3',
      DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '1000',
    });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After after the failed attempts, even with the right password', async () => {
    const user = await signedUpUser(server);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await logIn(server, user.email, 'wrong password here')).response.status).toBe(401);
    }
    const { error, response } = await logIn(server, user.email, user.password);
    expect(response.status).toBe(429);
    expect(error).toEqual({ error: 'Too many attempts; try again later', code: 'rate_limit_exceeded' });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('counts per address: another address from the same client still logs in', async () => {
    const victim = await signedUpUser(server);
    const other = await signedUpUser(server);
    for (let attempt = 0; attempt < 4; attempt++) await logIn(server, victim.email, 'wrong password here');
    expect((await logIn(server, other.email, other.password)).response.status).toBe(200);
  });

  it('counts an unknown address like a known one (nothing to learn from the limit)', async () => {
    const nobody = uniqueEmail('nobody');
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++)
      statuses.push((await logIn(server, nobody, 'wrong password here')).response.status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('a successful log-in clears the count of its address', async () => {
    const user = await signedUpUser(server);
    for (let attempt = 0; attempt < 2; attempt++) await logIn(server, user.email, 'wrong password here');
    expect((await logIn(server, user.email, user.password)).response.status).toBe(200);
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++)
      statuses.push((await logIn(server, user.email, 'wrong password here')).response.status);
    expect(statuses).toEqual([401, 401, 401]);
  });

  it('ignores letter case in the address', async () => {
    const user = await signedUpUser(server);
    for (const email of [
      user.email,
      user.email.toUpperCase(),
      `${user.email[0]!.toUpperCase()}${user.email.slice(1)}`,
    ]) {
      await logIn(server, email, 'wrong password here');
    }
    expect((await logIn(server, user.email, user.password)).response.status).toBe(429);
  });

  it('keeps counters under hashed keys: no address in clear in the store', async () => {
    const user = await signedUpUser(server);
    await logIn(server, user.email, 'wrong password here');
    const keys = (await server.built.db.selectFrom('developer_login_attempts').select('key').execute()).map(
      (row) => row.key,
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(/^(login|client|mail):[0-9a-f]{64}$/);
      expect(key).not.toContain(user.email);
      expect(key).not.toContain('127.0.0.1');
    }
    // Not a bare SHA-256 either, which anyone could test a guess against: an HMAC under COUNTER_KEY_SECRET.
    const guesses = [sha256Hex('127.0.0.1'), sha256Hex(`${user.email}\n127.0.0.1`)];
    for (const key of keys) expect(guesses).not.toContain(key.split(':')[1]);
    expect(keys).toContain(`client:${keyedHash(server.config.developer.counterKeySecret)('127.0.0.1')}`);
  });
});

describe('a third party failing from another address', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy, so each request names its client address.
    server = await startDashboardServer({
      TRUST_PROXY: 'true',
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '3',
      DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '1000',
    });
  });
  afterAll(() => server.close());

  it('is refused itself, but never locks the owner out', async () => {
    const owner = await signedUpUser(server);
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await logIn(server, owner.email, 'wrong password here', '203.0.113.9')).response.status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // Even the right password is refused from there now.
    expect((await logIn(server, owner.email, owner.password, '203.0.113.9')).response.status).toBe(429);
    // The owner, from their own address, logs in.
    expect((await logIn(server, owner.email, owner.password, '198.51.100.7')).response.status).toBe(200);
  });

  it('is refused across addresses by the looser per-client budget', async () => {
    const other = await startDashboardServer({
      TRUST_PROXY: 'true',
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '100',
      DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '4',
    });
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 5; attempt++)
        statuses.push((await logIn(other, uniqueEmail(), 'wrong password here', '203.0.113.10')).response.status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await other.close();
    }
  });
});

describe('per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDashboardServer({
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '100',
      DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '4',
    });
  });
  afterAll(() => server.close());

  it('answers 429 after attempts on several addresses, sign-ups and successful log-ins included', async () => {
    // A successful log-in hashes a password too: counted, so that one address cannot keep the hashing busy.
    const user = await signedUpUser(server); // 1 sign-up, 2 its log-in
    expect((await logIn(server, uniqueEmail(), 'wrong password here')).response.status).toBe(401); // 3
    const caller = await dashboardCaller(server);
    expect(
      (await sdk.signUp({ client: caller.client, body: { email: user.email, password: GOOD_PASSWORD } })).response
        .status,
    ).toBe(202); // 4
    const blocked = await logIn(server, user.email, user.password);
    expect(blocked.response.status).toBe(429);
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    const signUp = await sdk.signUp({ client: caller.client, body: { email: uniqueEmail(), password: GOOD_PASSWORD } });
    expect(signUp.response.status).toBe(429);
  });
});

describe('the window', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Long enough that the two attempts below fall in one window on a slow machine (each hashes a password).
    server = await startDashboardServer({
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '1',
      DEVELOPER_LOGIN_WINDOW_SECONDS: '4',
    });
  });
  afterAll(() => server.close());

  it('starts counting again once the window has ended', async () => {
    const user = await signedUpUser(server);
    expect((await logIn(server, user.email, 'wrong password here')).response.status).toBe(401);
    const refused = await logIn(server, user.email, user.password);
    expect(refused.response.status).toBe(429);
    // Waits as long as the answer says the window lasts, not a guess.
    const retryAfter = Number(refused.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    expect((await logIn(server, user.email, user.password)).response.status).toBe(200);
  });
});
