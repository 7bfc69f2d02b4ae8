import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { lastLine, runAdmin, startProcess, type ServerProcess } from '../support/processes.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { dropSchema } from '../support/server.js';

/**
 * Three stateless instances behind a round-robin "load balancer", sharing
 * PostgreSQL and Redis, answer as one instance would.
 */
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `test_${randomUUID().replaceAll('-', '')}`;
let redis: RedisServer;
let instances: ServerProcess[] = [];
let env: Record<string, string>;
let call: typeof fetch;
let turn = 0;
/** The next instance, round-robin. */
const next = () => instances[turn++ % instances.length]!;

beforeAll(async () => {
  redis = await startRedis();
  env = {
    DATABASE_URL: postgresUrl,
    DATABASE_SCHEMA: schema,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `test-${randomUUID()}`,
    LOG_LEVEL: 'warn',
    RESPONSE_VALIDATION: 'strict',
    METRICS_TOKEN: 'many-instances-metrics-token',
  };
  // All three start at once: migrations and demo data must still be applied exactly once.
  instances = await Promise.all([0, 1, 2].map(() => startProcess(env, { startupMs: 90_000 })));
  call = contractFetch(await contractChecker());
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all(instances.map((instance) => instance.stop()));
  await redis.stop();
  await dropSchema(postgresUrl, schema);
  expect(codes).toEqual([0, 0, 0]);
});

describe('rate limits across instances', () => {
  it('150 anonymous lookups from one client IP: exactly 100 succeed and 50 are refused, with one count', async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 150; i++) answers.push(await call(`${next().base}/v3/profiles/alex`));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
    // Every instance reports the same shared count: 99, 98, ... 0, whichever answered.
    expect(answers.slice(0, 100).map((res) => Number(res.headers.get('x-ratelimit-remaining')))).toEqual(
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    expect(new Set(answers.map((res) => res.headers.get('x-ratelimit-limit')))).toEqual(new Set(['100']));
  });
});

describe('restores across instances', () => {
  it('50 concurrent restores of one trashed post make exactly one transition', async () => {
    const token = lastLine(await runAdmin(['tokens', 'create', '--user', 'admin'], env));
    const restore = () =>
      call(`${next().base}/rest/v1.1/sites/1/posts/103/restore`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
    const answers = await Promise.all(Array.from({ length: 50 }, restore));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    const posts = await Promise.all(answers.map((res) => res.json() as Promise<{ status: string; slug: string }>));
    expect(new Set(posts.map((post) => post.status))).toEqual(new Set(['pending']));
    expect(posts.every((post) => !post.slug.endsWith('__trashed'))).toBe(true);

    // Each instance counts what its restores did; together: one transition, 49 found it done.
    const outcome = async (name: string) => {
      let total = 0;
      for (const instance of instances) {
        const text = await (
          await fetch(`${instance.base}/metrics`, { headers: { Authorization: `Bearer ${env.METRICS_TOKEN}` } })
        ).text();
        total += Number(new RegExp(`^post_restores_total\\{outcome="${name}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
      }
      return total;
    };
    expect(await outcome('restored')).toBe(1);
    expect(await outcome('unchanged')).toBe(49);

    // The store is consistent: a later restore finds nothing to do and answers the same post.
    const again = await restore();
    expect(((await again.json()) as { status: string }).status).toBe('pending');
    expect(await outcome('unchanged')).toBe(50);
  });
});
