import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import { toProfileContent } from '../../../src/services/profiles/import/toProfileContent.js';
import { adminInProcess } from '../../support/admin.js';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { pino } from 'pino';
import { startServer, type TestServer } from '../../support/server.js';
import { startProfiles, type ProfilesTestServer } from './support.js';

/**
 * The fast path (`PROFILES_FAST_PATH`, docs/decisions/fast-path.md): the
 * anonymous lookups the pipeline already answered are answered again before
 * Koa, and a client cannot tell: the same requests to a server with it and
 * one without get the same status, headers (names, order, values) and bytes.
 */

interface Exchange {
  status: number;
  /** Header names and values as they came, in order. */
  headers: [string, string][];
  body: Buffer;
}

/** One request over a connection of its own, with the answer's raw header lines. */
function send(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Exchange>((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Values that differ between any two answers (the request id, the date, the reset second of a window started apart). */
const PER_ANSWER = new Set(['x-request-id', 'date', 'x-ratelimit-reset']);
const comparable = (exchange: Exchange) => ({
  status: exchange.status,
  headers: exchange.headers.map(([name, value]) => [name, PER_ANSWER.has(name.toLowerCase()) ? '…' : value]),
  body: exchange.body.toString('base64'),
});
const header = (exchange: Exchange, name: string) =>
  exchange.headers.find(([candidate]) => candidate.toLowerCase() === name)?.[1];

const fastAnswered = (harness: ProfilesTestServer) => harness.server.built.fastPath?.answered ?? 0;

/** What `rate_limit_rejections_total` says for anonymous profile lookups. */
async function rejections(harness: ProfilesTestServer): Promise<number> {
  const metric = await harness.server.built.metrics.rateLimitRejections.get();
  return metric.values.find((value) => value.labels.caller === 'profiles-anonymous')?.value ?? 0;
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fast-path-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Alex's profile as an import record, with a display name of the test's choosing. */
const alexRecord = (displayName: string): ProfileRecord => ({
  email: 'alex@example.com',
  slug: 'alex',
  display_name: displayName,
  job_title: 'Cartographer',
  links: [],
  contact_info: {},
  payments: { public: true, links: [], crypto_wallets: [] },
  verified_accounts: [],
  registration_date: '2020-05-06',
  last_profile_edit: '2026-01-02T03:04:05.678+01:00',
});

/** Changes Alex's profile with the admin command line's `profiles import`, run on the server's store. */
async function importAlex(harness: ProfilesTestServer, displayName: string) {
  const file = join(folder, `alex-${Date.now()}-${Math.random()}.json`);
  writeFileSync(file, JSON.stringify([alexRecord(displayName)]));
  const { code, stderr } = await adminInProcess(harness.server.built.db, 'profiles', 'import', file);
  expect(code, stderr).toBe(0);
}

const servers: ProfilesTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const start = async (env: Record<string, string>) => {
  const harness = await startProfiles(env, { wire: true });
  servers.push(harness);
  return harness;
};

describe('the fast path', () => {
  it('answers every request exactly as the pipeline does, and takes the ones it may', async () => {
    // Every service, as production serves them: another's steps on every request would show here too.
    const env = {
      PROFILE_LOOKUP_CACHE_MS: '1500',
      RATE_LIMIT_ANONYMOUS: '60',
      SERVICES: 'profiles,publishing,developer',
    };
    const fast = await start(env);
    const slow = await start({ ...env, PROFILES_FAST_PATH: '0' });
    expect(slow.server.built.fastPath).toBeUndefined();

    const both = async (path: string, options: { method?: string; headers?: Record<string, string> } = {}) => {
      const [a, b] = [await send(fast.server.url, path, options), await send(slow.server.url, path, options)];
      expect(comparable(a), `${options.method ?? 'GET'} ${path} ${JSON.stringify(options.headers ?? {})}`).toEqual(
        comparable(b),
      );
      return a;
    };

    const first = await both('/v3/profiles/alex');
    expect(first.status).toBe(200);
    expect(fastAnswered(fast)).toBe(0);
    const etag = header(first, 'etag')!;
    const origin = { Origin: 'https://example.org' };
    const requests: [string, { method?: string; headers?: Record<string, string> }][] = [
      ['/v3/profiles/alex', {}],
      ['/v3/profiles/alex', { headers: origin }],
      ['/v3/profiles/alex', { method: 'HEAD' }],
      ['/v3/profiles/alex', { headers: { 'If-None-Match': etag } }],
      ['/v3/profiles/alex', { headers: { 'If-None-Match': `W/${etag}`, ...origin } }],
      ['/v3/profiles/alex', { method: 'HEAD', headers: { 'If-None-Match': etag } }],
      ['/v3/profiles/alex', { headers: { 'If-None-Match': '"other"' } }],
      ['/v3/profiles/alex', { headers: { 'X-Request-Id': 'client-chosen-id' } }],
      ['/v3/profiles/ALEX', {}],
      ['/v3/profiles/sam', {}],
      ['/v3/profiles/nobody-here', {}],
      ['/v3/profiles/alex?fields=x', {}],
      ['/v3/profiles/alex/', {}],
      ['/v3/profiles/alex', { headers: { Authorization: 'Bearer not-a-key' } }],
    ];
    // Twice over: the first time the pipeline answers and its answer is kept; the second time the fast path may.
    for (let round = 0; round < 2; round++)
      for (const [path, options] of requests) {
        const answer = await both(path, options);
        if (path === '/v3/profiles/alex' && options.headers?.['X-Request-Id'])
          expect(header(answer, 'x-request-id')).toBe('client-chosen-id');
      }
    // GET, Origin, HEAD, 304, weak 304, HEAD 304, another tag, client id, ALEX and sam: ten taken the second round
    // (the first time each of GET alex, HEAD alex, the 304s, ALEX and sam went to Koa).
    expect(fastAnswered(fast)).toBeGreaterThanOrEqual(10);

    // A change imported by the admin command line shows when the lookup cache lets it, on both alike.
    await importAlex(fast, 'Alex Changed');
    await importAlex(slow, 'Alex Changed');
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const changed = await both('/v3/profiles/alex');
    expect(JSON.parse(changed.body.toString()).display_name).toBe('Alex Changed');
    expect(header(changed, 'etag')).not.toBe(etag);
    const taken = fastAnswered(fast);
    await both('/v3/profiles/alex');
    expect(fastAnswered(fast)).toBe(taken + 1);
  });

  it('answers a key holder exactly as the pipeline does once the key cache knows the key, apart from anonymous callers', async () => {
    const env = { PROFILE_LOOKUP_CACHE_MS: '60000', RATE_LIMIT_KEYED: '50' };
    const fast = await start(env);
    const slow = await start({ ...env, PROFILES_FAST_PATH: '0' });
    const keys = [(await fast.issueKey()).key, (await slow.issueKey()).key];
    // Each server its own key (two stores): the same request but for the key.
    const both = async (
      path: string,
      options: { method?: string; headers?: Record<string, string> } = {},
      keyed = true,
    ) => {
      const [a, b] = await Promise.all(
        [fast, slow].map((harness, n) =>
          send(harness.server.url, path, {
            ...options,
            headers: { ...options.headers, ...(keyed ? { Authorization: `Bearer ${keys[n]}` } : {}) },
          }),
        ),
      );
      expect(comparable(a!), `${options.method ?? 'GET'} ${path} keyed ${keyed}`).toEqual(comparable(b!));
      return a!;
    };
    const first = await both('/v3/profiles/alex');
    expect(first.status).toBe(200);
    // A keyed answer: the keyed fields, its own cache policy and entity tag.
    expect(Object.keys(JSON.parse(first.body.toString()))).toEqual(expect.arrayContaining(['contact_info']));
    const anonymous = await both('/v3/profiles/alex', {}, false);
    expect(header(anonymous, 'etag')).not.toBe(header(first, 'etag'));
    const taken = fastAnswered(fast);
    for (let round = 0; round < 2; round++) {
      await both('/v3/profiles/alex');
      await both('/v3/profiles/alex', {}, false);
      await both('/v3/profiles/alex', { method: 'HEAD' });
      await both('/v3/profiles/alex', {
        headers: { 'If-None-Match': header(first, 'etag')!, Origin: 'https://example.org' },
      });
    }
    // Keyed GETs and the anonymous ones both taken, each audience its own kept answer (HEAD and the 304 once kept).
    expect(fastAnswered(fast) - taken).toBeGreaterThanOrEqual(6);
    const remaining = header(await both('/v3/profiles/alex'), 'x-ratelimit-remaining');
    // Every keyed request counted once on the key's counter, on either path (the key's first use, eight more, this one).
    expect(remaining).toBe(String(50 - 8));
    // A key nobody holds (the pipeline answers it as it answers an unknown key), and a lower-case scheme: never
    // taken, however often sent, and answered alike on both.
    const before = fastAnswered(fast);
    for (let round = 0; round < 2; round++) {
      const stranger = await Promise.all(
        [fast, slow].map((harness) =>
          send(harness.server.url, '/v3/profiles/alex', {
            headers: { Authorization: `Bearer ${keys[0]!.slice(0, -4)}zzzz` },
          }),
        ),
      );
      expect(comparable(stranger[0]!)).toEqual(comparable(stranger[1]!));
    }
    expect(fastAnswered(fast)).toBe(before);
    const lower = await send(fast.server.url, '/v3/profiles/alex', { headers: { Authorization: `bearer ${keys[0]}` } });
    expect(lower.status).toBe(200);
    expect(fastAnswered(fast)).toBe(before);
  });

  it('answers the cached profile only while the lookup cache holds it, and never a stale one after', async () => {
    const fast = await start({ PROFILE_LOOKUP_CACHE_MS: '1000' });
    const first = await send(fast.server.url, '/v3/profiles/alex');
    const again = await send(fast.server.url, '/v3/profiles/alex');
    expect(fastAnswered(fast)).toBe(1);
    expect(again.body).toEqual(first.body);

    // Changed in the store behind the cache: the cache's answer stands for its lifetime, as the pipeline's would.
    const record = alexRecord('Alex From The Store');
    await fast.store.saveProfiles([
      { email: record.email, profile: toProfileContent(record, new Date()), avatar: null },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await send(fast.server.url, '/v3/profiles/alex');
    expect(JSON.parse(after.body.toString()).display_name).toBe('Alex From The Store');
    expect(fastAnswered(fast)).toBe(1);
    const kept = await send(fast.server.url, '/v3/profiles/alex');
    expect(kept.body).toEqual(after.body);
    expect(fastAnswered(fast)).toBe(2);
  });

  it('is off with the lookup cache off: every lookup asks the store, as the pipeline does', async () => {
    const fast = await start({ PROFILE_LOOKUP_CACHE_MS: '0' });
    for (let i = 0; i < 3; i++) expect((await send(fast.server.url, '/v3/profiles/alex')).status).toBe(200);
    expect(fastAnswered(fast)).toBe(0);
  });
});

describe('the fast path and what the pipeline records', () => {
  it('logs and counts each request as the pipeline does', async () => {
    const started: { server: TestServer; lines: Record<string, unknown>[] }[] = [];
    try {
      for (const fastPath of ['1', '0']) {
        const lines: Record<string, unknown>[] = [];
        const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
        const server = await startServer(
          { PROFILES_FAST_PATH: fastPath, PROFILE_LOOKUP_CACHE_MS: '60000' },
          { services: ['profiles'], logger },
        );
        started.push({ server, lines });
      }
      const [fast, slow] = started as [(typeof started)[0], (typeof started)[0]];
      for (const { server } of started) {
        const first = await send(server.url, '/v3/profiles/alex');
        for (let i = 0; i < 3; i++) await send(server.url, '/v3/profiles/alex');
        await send(server.url, '/v3/profiles/alex', { method: 'HEAD' });
        await send(server.url, '/v3/profiles/alex', { method: 'HEAD' });
        for (let i = 0; i < 2; i++)
          await send(server.url, '/v3/profiles/alex', { headers: { 'If-None-Match': header(first, 'etag')! } });
      }
      expect(fast.server.built.fastPath?.answered).toBe(5);
      const requests = (lines: Record<string, unknown>[]) =>
        lines
          .filter((line) => line.msg === 'request')
          .map(({ requestId, ms, time, pid, hostname, ...rest }) => {
            expect(typeof requestId).toBe('string');
            expect(typeof ms).toBe('number');
            return rest;
          });
      expect(requests(fast.lines)).toHaveLength(8);
      expect(requests(fast.lines)).toEqual(requests(slow.lines));
      const counted = async (server: TestServer) =>
        (await server.built.metrics.registry.getSingleMetricAsString('http_requests_total'))
          .split('\n')
          .filter((line) => line.includes('service="profiles"'));
      expect(await counted(fast.server)).toEqual(await counted(slow.server));
      expect(await counted(fast.server)).toContain(
        'http_requests_total{service="profiles",operation="getProfileById",status="200"} 6',
      );
    } finally {
      await Promise.all(started.map(({ server }) => server.close()));
    }
  });
});

describe('the fast path and the rate limits', () => {
  it('counts a client behind trusted proxies by the address they name, as the pipeline does', async () => {
    const env = { TRUST_PROXY: 'true', RATE_LIMIT_ANONYMOUS: '3', PROFILE_LOOKUP_CACHE_MS: '60000' };
    const fast = await start(env);
    const slow = await start({ ...env, PROFILES_FAST_PATH: '0' });
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++)
      for (const address of ['203.0.113.1', '203.0.113.2']) {
        const options = { headers: { 'X-Forwarded-For': address } };
        const [a, b] = [
          await send(fast.server.url, '/v3/profiles/alex', options),
          await send(slow.server.url, '/v3/profiles/alex', options),
        ];
        expect(comparable(a)).toEqual(comparable(b));
        statuses.push(`${a.status} ${header(a, 'x-ratelimit-remaining')}`);
      }
    expect(statuses).toEqual(['200 2', '200 2', '200 1', '200 1', '200 0', '200 0', '429 0', '429 0']);
    // Every 200 but the first (the pipeline's, kept).
    expect(fastAnswered(fast)).toBe(5);
  });

  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  for (const where of ['in this process', 'in Redis'] as const)
    it(`counts on the pipeline's counters (${where}): alternating paths does not double the limit`, async () => {
      if (where === 'in Redis') redis ??= await startRedis();
      const env = {
        RATE_LIMIT_ANONYMOUS: '6',
        PROFILE_LOOKUP_CACHE_MS: '60000',
        ...(where === 'in Redis' ? { REDIS_URL: redis!.url } : {}),
      };
      // Each server its own counters (in Redis, its own key prefix), so that both count the same requests.
      const prefix = `fast-path-${Date.now()}`;
      const fast = await start({ ...env, REDIS_KEY_PREFIX: `${prefix}-on` });
      const slow = await start({ ...env, REDIS_KEY_PREFIX: `${prefix}-off`, PROFILES_FAST_PATH: '0' });
      const both = async (path: string) => {
        const [a, b] = [await send(fast.server.url, path), await send(slow.server.url, path)];
        expect(comparable(a), path).toEqual(comparable(b));
        return a;
      };
      const remaining: string[] = [];
      // The fast path's and the pipeline's (a query string goes to Koa) requests, in turns.
      for (const path of ['/v3/profiles/alex', '/v3/profiles/alex', '/v3/profiles/alex?x=1', '/v3/profiles/alex']) {
        const answer = await both(path);
        expect(answer.status).toBe(200);
        remaining.push(header(answer, 'x-ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['5', '4', '3', '2']);
      expect(fastAnswered(fast)).toBe(2);
      expect((await both('/v3/profiles/alex?y=2')).status).toBe(200);
      expect(header(await both('/v3/profiles/alex'), 'x-ratelimit-remaining')).toBe('0');
      expect(fastAnswered(fast)).toBe(3);

      // Spent: the pipeline makes the 429, counted once, whichever path the request came to.
      const refused = await both('/v3/profiles/alex');
      expect(refused.status).toBe(429);
      expect(header(refused, 'retry-after')).toBeDefined();
      expect(fastAnswered(fast)).toBe(3);
      expect(await rejections(fast)).toBe(1);
      expect(await rejections(slow)).toBe(1);
      expect((await both('/v3/profiles/alex?z=3')).status).toBe(429);
      expect(await rejections(fast)).toBe(2);
    });
});
