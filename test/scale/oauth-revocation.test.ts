import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../generated/developer/sdk.gen.js';
import type { Database } from '../../src/app.js';
import { findAccountId } from '../../src/accounts/accounts.js';
import { authorizedCallback, personOf, redeem, refresh, registeredApp } from '../accounts/oauth/support.js';
import { adminInProcess } from '../support/admin.js';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startInstancePair, type InstancePair } from '../support/instances.js';
import { postgresUrl } from '../support/postgres.js';
import { freePort } from '../support/processes.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { dropSchema, type TestServer } from '../support/server.js';
import { DASHBOARD_ENV, signedUpUser } from '../services/developer/support/dashboard.js';

/**
 * Two instances on one PostgreSQL store and one Redis, as behind a load
 * balancer (one issuer, `PUBLIC_URL`), each remembering what it knows of a
 * token for `CACHE_MS` (`API_KEY_CACHE_MS` for the profile API,
 * `ACCESS_TOKEN_CACHE_MS` for publishing). A token used on both is refused
 * on both within that bound once the person revokes the app or deletes their
 * account, the developer deletes the app, or the operator revokes the
 * person's tokens.
 */
const CACHE_MS = 5000;
const schema = `test_${randomUUID().replaceAll('-', '')}`;
let redis: RedisServer;
let instances: InstancePair;
let call: typeof fetch;

beforeAll(async () => {
  redis = await startRedis();
  const ports = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${ports[0]}`;
  instances = await startInstancePair(
    {
      ...DASHBOARD_ENV,
      DATABASE_URL: postgresUrl,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redis.url,
      PUBLIC_URL: issuer,
      API_KEY_CACHE_MS: String(CACHE_MS),
      ACCESS_TOKEN_CACHE_MS: String(CACHE_MS),
    },
    (index) => ({ PORT: String(ports[index]) }),
  );
  call = contractFetch(await contractChecker());
}, 120_000);

afterAll(async () => {
  await instances?.close();
  await redis?.stop();
  await dropSchema(postgresUrl, schema);
});

const ADA_HASH = createHash('sha256').update('ada@demo.example.com').digest('hex');

/** What each instance answers to the token: the profile API's `/me/associated-email` and (unless `profileOnly`) a publishing read, as statuses. */
async function answersTo(token: string, profileOnly = false): Promise<number[]> {
  const headers = { Authorization: `Bearer ${token}` };
  const statuses: number[] = [];
  for (const server of [instances.one, instances.other]) {
    statuses.push((await call(`${server.url}/v3/me/associated-email?email_hash=${ADA_HASH}`, { headers })).status);
    if (!profileOnly) statuses.push((await call(`${server.url}/rest/v1.1/sites/1/posts/108`, { headers })).status);
  }
  return statuses;
}

/** Asks both instances until both refuse the token. Fails when either still accepts it past the cache bound. */
async function refusedEverywhereWithin(token: string, profileOnly = false): Promise<void> {
  const since = Date.now();
  let statuses = await answersTo(token, profileOnly);
  while (statuses.some((status) => status === 200) && Date.now() - since < CACHE_MS + 1000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    statuses = await answersTo(token, profileOnly);
  }
  expect(
    statuses.every((status) => status === 401),
    `answered ${statuses.join(', ')}`,
  ).toBe(true);
}

/** A person's tokens for a new app, used on both instances (so both remember them). */
async function tokensInUse(server: TestServer, email: string) {
  const app = await registeredApp(server);
  const person = await personOf(server, email);
  const flow = await authorizedCallback(server, app, person, 'profile publishing:read', [{ id: 1, access: 'read' }]);
  const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
  expect(await answersTo(tokens.access_token)).toEqual([200, 200, 200, 200]);
  return { app, person, tokens };
}

describe('a token used on two instances', () => {
  it('is refused on both within the cache bound once the person revokes the app on the dashboard', async () => {
    const { app, person, tokens } = await tokensInUse(instances.one, 'ada@demo.example.com');
    const revoked = await sdk.revokeAuthorization({
      client: person.client,
      headers: person.csrf,
      path: { applicationId: app.client.client_id },
    });
    expect(revoked.response.status).toBe(204);
    await refusedEverywhereWithin(tokens.access_token);
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('is refused on both within the cache bound once the developer deletes the app on the dashboard', async () => {
    const { app, tokens } = await tokensInUse(instances.one, 'ada@demo.example.com');
    const deleted = await sdk.deleteApplication({
      client: app.developer.client,
      headers: app.developer.csrf,
      path: { applicationId: app.client.client_id },
    });
    expect(deleted.response.status).toBe(204);
    await refusedEverywhereWithin(tokens.access_token);
  });

  it('is refused on both within the cache bound once the person deletes their account', async () => {
    const app = await registeredApp(instances.one);
    const person = await signedUpUser(instances.one);
    const flow = await authorizedCallback(instances.one, app, { ...person, accountId: '' }, 'profile', []);
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    expect(await answersTo(tokens.access_token, true)).toEqual([200, 200]);
    const db = instances.one.built.db;
    const accountId = await findAccountId(db, person.email);
    const deleted = await sdk.deleteAccount({
      client: person.client,
      headers: person.csrf,
      body: { password: person.password },
    });
    expect(deleted.response.status).toBe(204);
    await refusedEverywhereWithin(tokens.access_token, true);
    // Nothing of the account's authorizations is left at rest: grants, tokens and their sites go with it.
    expect(
      await db.selectFrom('oauth_records').select('id_hash').where('account_id', '=', accountId!).execute(),
    ).toEqual([]);
  });

  it('is refused on both within the cache bound once the operator revokes the person’s tokens', async () => {
    const { app, tokens } = await tokensInUse(instances.one, 'ada@demo.example.com');
    const outcome = await adminInProcess(
      instances.one.built.db as Kysely<Database>,
      'tokens',
      'revoke',
      '--user',
      'admin',
    );
    expect(outcome.stdout).toMatch(/[1-9]\d* app authorizations? revoked/);
    await refusedEverywhereWithin(tokens.access_token);
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
