import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * With REDIS_URL the profile rate limits are counted in Redis, so they hold
 * across instances; when Redis stops, each instance keeps serving with its
 * own counters, says so once, and shares again when Redis is back.
 */
let redis: RedisServer;
let a: TestServer;
let b: TestServer;
let call: typeof fetch;
const logged: { msg: string }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  const env = {
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `test-${randomUUID()}`,
    RATE_LIMIT_ANONYMOUS: '6',
    RATE_LIMIT_AVATARS: '3',
    RATE_LIMIT_PUBLISHING_READS: '3',
    STORE_TIMEOUT_MS: '500',
  };
  const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  a = await startServer(env, { logger });
  b = await startServer(env);
  call = contractFetch(await contractChecker());
});
afterAll(async () => {
  await a.close();
  await b.close();
  await redis.stop();
});

const lookup = (server: TestServer) => call(`${server.url}/v3/profiles/alex`);
const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));

describe('shared counters', () => {
  it('count every instance against one limit', async () => {
    const answers = [];
    for (const server of [a, b, a, b, a, b, a]) answers.push(await lookup(server));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(answers.slice(0, 6).map(remaining)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(answers[6]!.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('count avatar images and publishing reads of every instance against their own limits', async () => {
    const avatar = (server: TestServer) => call(`${server.url}/avatar/${'c'.repeat(64)}?d=blank&s=8`);
    const post = (server: TestServer) => call(`${server.url}/rest/v1.1/sites/demo.example.com/posts/108`);
    for (const ask of [avatar, post]) {
      const answers = [];
      for (const server of [a, b, a, b]) answers.push(await ask(server));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 429]);
      expect(answers.slice(0, 3).map(remaining)).toEqual([2, 1, 0]);
      expect(answers[3]!.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('readyz includes Redis', async () => {
    const res = await call(`${a.url}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
  });
});

describe('when Redis stops', () => {
  it('lookups go on with local counters, logged once, and readyz stays ready, reporting the degradation', async () => {
    await redis.stop();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await lookup(a));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    // The local (insurance) counter starts afresh in this instance.
    expect(answers.map(remaining)).toEqual([5, 4, 3]);
    const ready = await call(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'degraded', checks: { store: 'ok', redis: 'unavailable' } });
    expect(logged.filter((entry) => entry.msg.startsWith('redis unavailable'))).toHaveLength(1);
  });

  it('goes back to the shared counters when Redis is back', async () => {
    await redis.start();
    for (let i = 0; i < 50; i++) {
      const states = await Promise.all(
        [a, b].map(
          async (server) => ((await (await fetch(`${server.url}/readyz`)).json()) as { status: string }).status,
        ),
      );
      if (states.every((state) => state === 'ready')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A fresh Redis holds no counters: the shared count starts again and spans both instances.
    const first = await lookup(a);
    const second = await lookup(b);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([remaining(first), remaining(second)]).toEqual([5, 4]);
    expect(logged.filter((entry) => entry.msg.startsWith('redis is back'))).toHaveLength(1);
  });
});
