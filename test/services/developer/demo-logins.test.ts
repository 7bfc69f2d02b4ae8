import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { DEMO_PASSWORD } from '../../../src/services/developer/demo.js';
import { MIN_PASSWORD_COST } from '../../../src/services/developer/domain/password.js';
import { adminInProcess } from '../../support/admin.js';
import { dropSchema, type TestServer } from '../../support/server.js';
import {
  dashboardCaller,
  GOOD_PASSWORD,
  signedUpUser,
  startDashboardServer,
  verifyAddress,
} from './support/dashboard.js';

/**
 * A newcomer's first steps (issue 44, item 1): the demo people log in with the documented password (never in
 * production); a new account gets a publishing site of its own at its first log-in; the operator sets a
 * password and grants a role with the admin command line.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer();
});
afterAll(() => server.close());

const logIn = async (target: TestServer, email: string, password: string) => {
  const caller = await dashboardCaller(target);
  const { data, response, error } = await sdk.logIn({ client: caller.client, body: { email, password } });
  return { caller, status: response.status, data, error };
};

/** The sites where the account of `email` has a role, with the role. */
const sitesOf = (target: TestServer, email: string) =>
  target.built.db
    .selectFrom('accounts')
    .innerJoin('users', 'users.account_id', 'accounts.id')
    .innerJoin('site_roles', 'site_roles.user_id', 'users.id')
    .innerJoin('sites', 'sites.id', 'site_roles.site_id')
    .select(['sites.id', 'sites.domain', 'site_roles.role', 'users.login'])
    .where('accounts.email', '=', email)
    .orderBy('sites.id')
    .execute();

describe('demo log-ins', () => {
  it('the demo password is hashed once per process: a second store gets the same hash, and its people log in', async () => {
    const second = await startDashboardServer();
    try {
      const hashOf = (target: TestServer) =>
        target.built.db
          .selectFrom('developer_credentials')
          .innerJoin('accounts', 'accounts.id', 'developer_credentials.account_id')
          .select('developer_credentials.password_hash')
          .where('accounts.email', '=', 'ada@demo.example.com')
          .executeTakeFirstOrThrow();
      const [ours, theirs] = await Promise.all([hashOf(server), hashOf(second)]);
      expect(ours.password_hash).toMatch(/^\$scrypt\$ln=14,/);
      expect(theirs.password_hash).toBe(ours.password_hash);
      expect((await logIn(second, 'ada@demo.example.com', DEMO_PASSWORD)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('every demo person logs in with the documented password, address verified, on the sites of the demo data', async () => {
    for (const email of ['ada@demo.example.com', 'eddie@demo.example.com', 'sam@demo.example.com']) {
      const { status, data } = await logIn(server, email, DEMO_PASSWORD);
      expect(status).toBe(200);
      expect(data).toMatchObject({ email, email_verified: true });
    }
    // Their sites are the demo's: a log-in adds none.
    expect((await sitesOf(server, 'ada@demo.example.com')).map((site) => [site.id, site.role])).toEqual([
      [1, 'administrator'],
      [2, 'administrator'],
    ]);
  });

  it('a wrong password is still refused', async () => {
    expect((await logIn(server, 'ana@demo.example.com', `${DEMO_PASSWORD}x`)).status).toBe(401);
  });

  it('with NODE_ENV=production the demo people have no password', async () => {
    // A store of its own (on PostgreSQL a fresh schema, not the template the development servers copy), seeded in production.
    const pg = process.env.TEST_DATABASE_URL?.startsWith('postgres');
    const schema = pg ? `test_demo_${randomUUID().replaceAll('-', '')}` : undefined;
    const production = await startDashboardServer({
      NODE_ENV: 'production',
      MAIL_TO_LOG: 'true',
      COUNTER_KEY_SECRET: 'a production secret of at least 32 characters',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    });
    try {
      const refused = await logIn(production, 'ada@demo.example.com', DEMO_PASSWORD);
      expect(refused.status).toBe(401);
      expect(refused.error).toMatchObject({ code: 'invalid_credentials' });
      const count = await production.built.db
        .selectFrom('developer_credentials')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(count?.n)).toBe(0);
      // The operator may still give one a password.
      const set = await adminInProcess(production.built.db, 'accounts', 'password', '--email', 'ada@demo.example.com');
      expect(set.code).toBe(0);
      const password = set.stdout.trim().split('\n').at(-1)!;
      const logged = await logIn(production, 'ada@demo.example.com', password);
      expect(logged.status).toBe(200);
      // A password an operator gives counts the address as verified: nobody signed up for it.
      expect(logged.data?.email_verified).toBe(true);
    } finally {
      await production.close();
      if (schema) await dropSchema(process.env.TEST_DATABASE_URL!, schema);
    }
  });
});

describe('a site with the account', () => {
  it('a new account administers a site of its own from its first log-in, and only one', async () => {
    const email = `newcomer.${randomUUID().slice(0, 6)}@example.com`;
    const user = await signedUpUser(server, email);
    const sites = await sitesOf(server, email);
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ role: 'administrator', domain: `${sites[0]!.login}.sites.example.com` });
    expect(sites[0]!.login).toMatch(/^newcomer[a-z0-9]+$/);
    // Another log-in makes none.
    expect((await logIn(server, email, user.password)).status).toBe(200);
    expect(await sitesOf(server, email)).toEqual(sites);
    // It is readable on the publishing API at once.
    const read = await fetch(`${server.url}/rest/v1.1/sites/${sites[0]!.domain}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ ID: sites[0]!.id, URL: `https://${sites[0]!.domain}` });
  });

  it('two accounts of one local part get two logins and two sites', async () => {
    const local = `twin${randomUUID().slice(0, 6)}`;
    await signedUpUser(server, `${local}@one.example`);
    await signedUpUser(server, `${local}@two.example`);
    const [one, two] = [await sitesOf(server, `${local}@one.example`), await sitesOf(server, `${local}@two.example`)];
    expect(one[0]!.login).toBe(local);
    expect(two[0]!.login).toBe(`${local}2`);
    expect(one[0]!.id).not.toBe(two[0]!.id);
  });

  it('accounts of one local part logging in for the first time at once each get a login and a site of their own', async () => {
    // Each first log-in reads which logins are free; without taking turns they all picked one, and all but one lost
    // every try: on PostgreSQL most answered 500.
    const local = `crowd${randomUUID().slice(0, 6)}`;
    const emails = Array.from({ length: 16 }, (_, i) => `${local}@${i}.example`);
    for (const email of emails) {
      const { client } = await dashboardCaller(server);
      expect((await sdk.signUp({ client, body: { email, password: GOOD_PASSWORD } })).response.status).toBe(202);
      await verifyAddress(server, email);
    }
    const logIns = await Promise.all(emails.map((email) => logIn(server, email, GOOD_PASSWORD)));
    expect(logIns.map((answer) => answer.status)).toEqual(emails.map(() => 200));
    const sites = await Promise.all(emails.map((email) => sitesOf(server, email)));
    expect(sites.map((own) => own.length)).toEqual(emails.map(() => 1));
    expect(new Set(sites.map((own) => own[0]!.login)).size).toBe(emails.length);
    expect(new Set(sites.map((own) => own[0]!.id)).size).toBe(emails.length);
  });
});

describe('admin commands', () => {
  it('`accounts password` gives a new password (printed once) and ends the sessions', async () => {
    const user = await signedUpUser(server);
    const set = await adminInProcess(server.built.db, 'accounts', 'password', '--email', user.email);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    const password = set.stdout.trim().split('\n').at(-1)!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await sdk.getSession({ client: user.client })).response.status).toBe(401);
    expect((await logIn(server, user.email, user.password)).status).toBe(401);
    expect((await logIn(server, user.email, password)).status).toBe(200);
  });

  it("`accounts password` hashes at DEVELOPER_PASSWORD_COST, and at the deployments' floor in-process by default", async () => {
    const user = await signedUpUser(server);
    const storedCost = async () => {
      const row = await server.built.db
        .selectFrom('developer_credentials')
        .innerJoin('accounts', 'accounts.id', 'developer_credentials.account_id')
        .select('password_hash')
        .where('accounts.email', '=', user.email)
        .executeTakeFirstOrThrow();
      return /^\$scrypt\$ln=(\d+),/.exec(row.password_hash)?.[1];
    };
    expect((await adminInProcess(server.built.db, 'accounts', 'password', '--email', user.email)).code).toBe(0);
    expect(await storedCost()).toBe(String(MIN_PASSWORD_COST));
    vi.stubEnv('DEVELOPER_PASSWORD_COST', '15');
    try {
      expect((await adminInProcess(server.built.db, 'accounts', 'password', '--email', user.email)).code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await storedCost()).toBe('15');
  });

  it('`accounts password` for an unknown address fails and says so', async () => {
    const outcome = await adminInProcess(server.built.db, 'accounts', 'password', '--email', 'nobody-here@example.com');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('no account with the address nobody-here@example.com');
  });

  it('`sites grant` gives a role on a site by address or login, and refuses an unknown role', async () => {
    const user = await signedUpUser(server);
    const granted = await adminInProcess(
      server.built.db,
      'sites',
      'grant',
      '--site',
      'demo.example.com',
      '--email',
      user.email,
      '--role',
      'editor',
    );
    expect(granted.code).toBe(0);
    const roles = (await sitesOf(server, user.email)).map((site) => [site.id, site.role]);
    expect(roles).toContainEqual([1, 'editor']);
    const again = await adminInProcess(
      server.built.db,
      'sites',
      'grant',
      '--site',
      '1',
      '--user',
      (await sitesOf(server, user.email))[0]!.login,
      '--role',
      'author',
    );
    expect(again.code).toBe(0);
    expect((await sitesOf(server, user.email)).map((site) => [site.id, site.role])).toContainEqual([1, 'author']);
    const unknown = await adminInProcess(
      server.built.db,
      'sites',
      'grant',
      '--site',
      '1',
      '--email',
      user.email,
      '--role',
      'overlord',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no role "overlord"');
  });
});
