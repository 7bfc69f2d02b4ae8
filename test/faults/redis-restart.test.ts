import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { startServer, type TestServer } from '../support/server.js';
import { bounded, until200 } from './support.js';

/**
 * Redis (the shared rate-limit counters) stops and comes back while two
 * instances take concurrent lookups: with Redis the two together allow
 * exactly the limit; without it each instance allows exactly the limit on
 * its own (its insurance limiter) and stays ready, reporting `degraded`;
 * once Redis is back the shared count holds again, exactly.
 */
const LIMIT = 12;
let redis: RedisServer;
let a: TestServer;
let b: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  redis = await startRedis();
  const env = {
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `fault-${randomUUID()}`,
    RATE_LIMIT_ANONYMOUS: String(LIMIT),
    STORE_TIMEOUT_MS: '500',
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  call = contractFetch(await contractChecker());
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

/** `n` concurrent lookups spread over `servers`; answers the statuses. */
const load = (n: number, servers: TestServer[]) =>
  bounded(n, 6, async (i) => {
    // A connection per request: no keep-alive race can make the client send a request twice.
    const res = await call(`${servers[i % servers.length]!.url}/v3/profiles/alex`, {
      headers: { connection: 'close' },
    });
    await res.arrayBuffer();
    return res.status;
  });

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
const readiness = async (server: TestServer) => {
  const res = await fetch(`${server.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string } };
};

describe('Redis stopped and restarted under load', () => {
  it('keeps exact counts: shared, then per instance, then shared again; instances stay ready', async () => {
    const shared = await load(2 * LIMIT, [a, b]);
    expect([count(shared, 200), count(shared, 429)]).toEqual([LIMIT, LIMIT]);

    await redis.stop();
    const alone = await Promise.all([load(LIMIT + 5, [a]), load(LIMIT + 5, [b])]);
    for (const statuses of alone) expect([count(statuses, 200), count(statuses, 429)]).toEqual([LIMIT, 5]);
    for (const server of [a, b])
      expect(await readiness(server)).toEqual({
        status: 200,
        body: { status: 'degraded', checks: { store: 'ok', redis: 'unavailable' } },
      });

    await redis.start();
    for (const server of [a, b]) {
      await until200(async () => {
        const res = await fetch(`${server.url}/readyz`);
        const body = (await res.clone().json()) as { status: string };
        return new Response(null, { status: body.status === 'ready' ? 200 : 503 });
      });
    }
    // A fresh Redis holds no counters: the shared count starts again, across both instances.
    const again = await load(2 * LIMIT, [a, b]);
    expect([count(again, 200), count(again, 429)]).toEqual([LIMIT, LIMIT]);
  });
});
