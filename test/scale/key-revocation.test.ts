import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../generated/developer/sdk.gen.js';
import { startInstancePair, type InstancePair } from '../support/instances.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import {
  createdApplication,
  DASHBOARD_ENV,
  profileWithKey,
  signedUpUser,
} from '../services/developer/support/dashboard.js';

/**
 * Two instances on one store and one Redis, each trusting what it knows of
 * a key for a whole minute: a key revoked on one, or the keys of an account
 * deleted on one, stop working on the other within moments, because the
 * change is announced through Redis.
 */
let redis: RedisServer;
let instances: InstancePair;

beforeAll(async () => {
  redis = await startRedis();
  instances = await startInstancePair({ ...DASHBOARD_ENV, REDIS_URL: redis.url, API_KEY_CACHE_MS: '60000' });
}, 60_000);

afterAll(async () => {
  await instances?.close();
  await redis?.stop();
});

describe('a key revoked on one instance', () => {
  it('stops working on every other instance within moments, though each caches keys for a minute', async () => {
    const { one, other } = instances;
    const user = await signedUpUser(one);
    const { application, new_key } = await createdApplication(user, 'Revoked everywhere');
    expect(await profileWithKey(other, new_key.secret)).toMatchObject({
      status: 200,
      body: { links: expect.any(Array) },
    });
    await sdk.revokeApiKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id, keyId: new_key.id },
    });
    const revokedAt = Date.now();
    let answer = await profileWithKey(other, new_key.secret);
    // Without the announcement the other instance would trust the key for its whole cache bound (a minute).
    while ('links' in answer.body && Date.now() - revokedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await profileWithKey(other, new_key.secret);
    }
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('links');
    expect(Date.now() - revokedAt).toBeLessThan(30_000);
  });
});

describe('an account deleted on one instance', () => {
  it('has its keys stop working on every other instance within moments, though each caches keys for a minute', async () => {
    const { one, other } = instances;
    const user = await signedUpUser(one);
    const { new_key } = await createdApplication(user, 'Deleted with its account');
    expect(await profileWithKey(other, new_key.secret)).toMatchObject({
      status: 200,
      body: { links: expect.any(Array) },
    });
    expect(
      (await sdk.deleteAccount({ client: user.client, headers: user.csrf, body: { password: user.password } })).response
        .status,
    ).toBe(204);
    const deletedAt = Date.now();
    let answer = await profileWithKey(other, new_key.secret);
    // Without the announcement the other instance would trust the key for its whole cache bound (a minute).
    while ('links' in answer.body && Date.now() - deletedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await profileWithKey(other, new_key.secret);
    }
    expect(answer.body).not.toHaveProperty('links');
    expect(Date.now() - deletedAt).toBeLessThan(30_000);
  });
});
