import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startInstancePair, type InstancePair } from '../support/instances.js';
import { startRedisCluster, type RedisCluster } from '../support/redisCluster.js';
import { startServer, type TestServer } from '../support/server.js';
import * as sdk from '../../generated/developer/sdk.gen.js';
import {
  createdApplication,
  DASHBOARD_ENV,
  profileWithKey,
  signedUpUser,
} from '../services/developer/support/dashboard.js';

/**
 * With REDIS_CLUSTER_NODES the shared limits live on a Redis Cluster: exact
 * across instances, their keys spread over the masters' slots; when a
 * master dies every instance keeps answering on its own counters, and
 * shares them again once the cluster is whole.
 */
let cluster: RedisCluster;
let instances: TestServer[];
let call: typeof fetch;
const logged: { msg: string }[] = [];

beforeAll(async () => {
  // Without full coverage the masters still up say `cluster_state:ok` while one is down: the
  // hardest case for telling whether the cluster is whole (a client's ready check passes).
  cluster = await startRedisCluster({ fullCoverage: false });
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodes,
    REDIS_KEY_PREFIX: `test-${randomUUID()}`,
    RATE_LIMIT_ANONYMOUS: '6',
    STORE_TIMEOUT_MS: '500',
    TRUST_PROXY: 'true',
  };
  const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  instances = [await startServer(env, { logger }), await startServer(env), await startServer(env)];
  call = contractFetch(await contractChecker());
}, 120_000);
afterAll(async () => {
  await Promise.all((instances ?? []).map((server) => server.close()));
  await cluster?.close();
});

/** A lookup from the client at `address` (the instances trust X-Forwarded-For). */
const lookup = (server: TestServer, address: string) =>
  call(`${server.url}/v3/profiles/alex`, { headers: { 'X-Forwarded-For': address } });
const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));

/** Lookups from one new client, round-robin over the three instances. */
async function roundRobin(address: string, count: number): Promise<Response[]> {
  const answers: Response[] = [];
  for (let i = 0; i < count; i++) answers.push(await lookup(instances[i % 3]!, address));
  return answers;
}

/**
 * A new client whose first three lookups, one on each instance, were counted
 * on the shared counters (remaining 5, 4, 3): the instances' cluster clients
 * are connected and answering. Polled with fresh clients, so a loaded
 * machine's slow first commands (each instance counts on its own while one
 * times out) cannot pass for counters that are not shared.
 */
async function sharedClient(prefix: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const address = `${prefix}.${attempt}`;
    const answers = await roundRobin(address, 3);
    if (answers.every((res) => res.status === 200) && answers.map(remaining).join() === '5,4,3') return address;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the three instances never counted one client on shared counters');
}

describe('limits on a Redis Cluster', () => {
  it('are exact across three instances', async () => {
    const address = await sharedClient('198.51.100');
    const answers = await roundRobin(address, 4);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 429]);
    expect(answers.slice(0, 3).map(remaining)).toEqual([2, 1, 0]);
    expect(answers[3]!.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('spread their keys over every master', async () => {
    for (let i = 0; i < 30; i++) expect((await lookup(instances[i % 3]!, `198.51.101.${10 + i}`)).status).toBe(200);
    const keys = await cluster.keysPerMaster();
    expect(keys.every((count) => count > 0)).toBe(true);
    expect(keys.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(31);
  });

  it('readyz includes the cluster', async () => {
    const res = await call(`${instances[0]!.url}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
  });
});

describe('when a master dies', () => {
  const lost = () => logged.filter((entry) => entry.msg.startsWith('redis unavailable'));
  const back = () => logged.filter((entry) => entry.msg.startsWith('redis is back'));
  const readiness = async (server: TestServer) => (await call(`${server.url}/readyz`)).json();

  it('every instance keeps answering on its own counters, and says so once', async () => {
    await cluster.stop(0);
    // Clients whose keys lived on any master: while the cluster is not whole, none is refused for it.
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await lookup(instances[i % 3]!, `203.0.113.${i % 4}`));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    // The loss is logged when the client notices it (a failed command or the node's closed connection):
    // wait for it however slow the machine, then see it was logged once, not once per request.
    for (let waited = 0; lost().length === 0 && waited < 20_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 6; i++) expect((await lookup(instances[0]!, `203.0.113.${i}`)).status).toBe(200);
    expect(lost()).toHaveLength(1);
    expect(await readiness(instances[0]!)).toEqual({
      status: 'degraded',
      checks: { store: 'ok', redis: 'unavailable' },
    });
  });

  it('is not called back when its client reconnects while the master is still down', async () => {
    // Every client connection is closed: the cluster clients reconnect to the two masters still up,
    // whose cluster_state is ok, and count there again (a client of theirs is shared once more).
    await cluster.dropClients();
    await sharedClient('100.64.0');
    // One of the slots' masters still does not answer: the cluster is not back, and no new outage began.
    expect(back()).toHaveLength(0);
    expect(lost()).toHaveLength(1);
    expect(await readiness(instances[0]!)).toMatchObject({ status: 'degraded', checks: { redis: 'unavailable' } });
  });

  it('shares the counters again once the master is back, and says so once', async () => {
    await cluster.start(0);
    // The instances see the cluster whole again when their commands succeed: poll with fresh clients.
    const address = await sharedClient('192.0.2');
    const rest = await roundRobin(address, 4);
    expect(rest.map((res) => res.status)).toEqual([200, 200, 200, 429]);
    expect(rest.slice(0, 3).map(remaining)).toEqual([2, 1, 0]);
    // Nothing in the client says the master is back (the cluster client never closed): the instance looks.
    for (let waited = 0; back().length === 0 && waited < 20_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(back()).toHaveLength(1);
    expect(lost()).toHaveLength(1);
    expect(await readiness(instances[0]!)).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
  });
});

describe('the change bus on a Redis Cluster', () => {
  let pair: InstancePair;
  beforeAll(async () => {
    pair = await startInstancePair({
      ...DASHBOARD_ENV,
      REDIS_CLUSTER_NODES: cluster.nodes,
      API_KEY_CACHE_MS: '600000',
    });
  }, 60_000);
  afterAll(() => pair?.close());

  it('tells every instance of a key revoked on one, though each caches keys for ten minutes', async () => {
    const { one, other } = pair;
    const user = await signedUpUser(one);
    const { application, new_key } = await createdApplication(user, 'Revoked on the cluster');
    expect(await profileWithKey(other, new_key.secret)).toMatchObject({
      status: 200,
      body: { links: expect.any(Array) },
    });
    await sdk.revokeApiKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id, keyId: new_key.id },
    });
    // Without the bus the other instance would trust its cached key for ten minutes; poll well within that.
    let answer = await profileWithKey(other, new_key.secret);
    for (let attempt = 0; attempt < 300 && 'links' in answer.body; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await profileWithKey(other, new_key.secret);
    }
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('links');
  });
});
