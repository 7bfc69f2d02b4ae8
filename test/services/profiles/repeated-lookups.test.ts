import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import { toProfileContent } from '../../../src/services/profiles/import/toProfileContent.js';
import { adminInProcess } from '../../support/admin.js';
import { countReads } from '../../support/failingStatement.js';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { startServer, type TestServer } from '../../support/server.js';
import { startProfiles, type ProfilesTestServer } from './support.js';

/**
 * A profile looked up again and again, the one request path's busiest work
 * (docs/decisions/one-request-path.md): every repeat goes through the
 * pipeline, answered from the lookup cache with the same bytes and the same
 * headers, with the request's own values (its id, its rate-limit count) new
 * each time, logged and counted once each, and a change shown when the
 * lookup cache lets it.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** One lookup through the harness's contract-checked `fetch`. */
async function send(
  harness: ProfilesTestServer,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await harness.call(`${harness.server.url}${path}`, {
    method: options.method ?? 'GET',
    headers: options.headers,
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The answer's headers, but those that are the request's own (its id, the date, its rate-limit count) or its connection's. */
const REQUEST_OWN = new Set([
  'x-request-id',
  'date',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'connection',
  'keep-alive',
]);
const kept = (answer: Answer) => [...answer.headers].filter(([name]) => !REQUEST_OWN.has(name));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'repeated-lookups-'));
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

const servers: ProfilesTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const start = async (env: Record<string, string>) => {
  const harness = await startProfiles(env, { wire: true });
  servers.push(harness);
  return harness;
};

describe('a profile looked up again and again', () => {
  it('is answered with the same bytes and headers each time, and the request’s own values new', async () => {
    // Every service, as production serves them: another's steps on every request would show here too.
    const harness = await start({
      PROFILE_LOOKUP_CACHE_MS: '60000',
      RATE_LIMIT_ANONYMOUS: '60',
      SERVICES: 'profiles,publishing,developer',
    });
    const first = await send(harness, '/v3/profiles/alex');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const remaining = [Number(first.headers.get('x-ratelimit-remaining'))];
    const ids = new Set([first.headers.get('x-request-id')]);
    for (let i = 0; i < 3; i++) {
      const again = await send(harness, '/v3/profiles/alex');
      expect(again.body).toBe(first.body);
      expect(kept(again)).toEqual(kept(first));
      remaining.push(Number(again.headers.get('x-ratelimit-remaining')));
      ids.add(again.headers.get('x-request-id'));
    }
    // Each request counted once, each its own id.
    expect(remaining).toEqual([59, 58, 57, 56]);
    expect(ids.size).toBe(4);
    const chosen = await send(harness, '/v3/profiles/alex', { headers: { 'X-Request-Id': 'client-chosen-id' } });
    expect(chosen.headers.get('x-request-id')).toBe('client-chosen-id');

    const head = await send(harness, '/v3/profiles/alex', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(kept(head)).toEqual(kept(first));
    for (const match of [etag, `W/${etag}`]) {
      for (const method of ['GET', 'HEAD']) {
        const unchanged = await send(harness, '/v3/profiles/alex', { method, headers: { 'If-None-Match': match } });
        expect(unchanged.status, `${method} ${match}`).toBe(304);
        expect(unchanged.body).toBe('');
        expect(unchanged.headers.get('etag')).toBe(etag);
      }
    }
    expect((await send(harness, '/v3/profiles/alex', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    // Alex's lookup by another spelling of the identifier is the same profile and the same answer.
    expect((await send(harness, '/v3/profiles/ALEX')).headers.get('etag')).toBe(etag);
  });

  it('answers a key holder the keyed answer, apart from the anonymous one, each request counted once on the key', async () => {
    const harness = await start({ PROFILE_LOOKUP_CACHE_MS: '60000', RATE_LIMIT_KEYED: '50' });
    const { key } = await harness.issueKey();
    const keyed = { Authorization: `Bearer ${key}` };
    const first = await send(harness, '/v3/profiles/alex', { headers: keyed });
    expect(first.status).toBe(200);
    expect(Object.keys(JSON.parse(first.body))).toEqual(expect.arrayContaining(['contact_info']));
    const anonymous = await send(harness, '/v3/profiles/alex');
    expect(anonymous.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(Object.keys(JSON.parse(anonymous.body))).not.toContain('contact_info');
    for (let round = 0; round < 2; round++) {
      const again = await send(harness, '/v3/profiles/alex', { headers: keyed });
      expect(again.body).toBe(first.body);
      expect(kept(again)).toEqual(kept(first));
      await send(harness, '/v3/profiles/alex', { method: 'HEAD', headers: keyed });
      const unchanged = await send(harness, '/v3/profiles/alex', {
        headers: { ...keyed, 'If-None-Match': first.headers.get('etag')! },
      });
      expect(unchanged.status).toBe(304);
    }
    // The key's first use, six more, this one.
    const last = await send(harness, '/v3/profiles/alex', { headers: keyed });
    expect(last.headers.get('x-ratelimit-remaining')).toBe(String(50 - 8));
  });

  it('shows a change made behind the lookup cache once the cache lets it, never a stale answer after', async () => {
    const harness = await start({ PROFILE_LOOKUP_CACHE_MS: '1000' });
    const first = await send(harness, '/v3/profiles/alex');
    const record = alexRecord('Alex From The Store');
    await harness.store.saveProfiles([
      { email: record.email, profile: toProfileContent(record, new Date()), avatar: null },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await send(harness, '/v3/profiles/alex');
    expect(JSON.parse(after.body).display_name).toBe('Alex From The Store');
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((await send(harness, '/v3/profiles/alex')).body).toBe(after.body);
  });

  it('keeps at most PROFILE_LOOKUP_CACHE_ENTRIES lookups: one let go is read from the store again, within its lifetime', async () => {
    const lookups = async (entries: string) => {
      const harness = await start({ PROFILE_LOOKUP_CACHE_MS: '60000', PROFILE_LOOKUP_CACHE_ENTRIES: entries });
      // Read twice: a lookup read once is not kept.
      await send(harness, '/v3/profiles/alex');
      const before = JSON.parse((await send(harness, '/v3/profiles/alex')).body).display_name;
      const record = alexRecord('Alex Behind The Cache');
      await harness.store.saveProfiles([
        { email: record.email, profile: toProfileContent(record, new Date()), avatar: null },
      ]);
      // Five other lookups, each read twice (absences are kept too): more than two entries hold.
      for (let i = 0; i < 10; i++) expect((await send(harness, `/v3/profiles/nobody-${i >> 1}`)).status).toBe(404);
      return { before, after: JSON.parse((await send(harness, '/v3/profiles/alex')).body).display_name };
    };
    expect(await lookups('2')).toEqual({ before: 'Alex Morgan', after: 'Alex Behind The Cache' });
    expect(await lookups('10000')).toEqual({ before: 'Alex Morgan', after: 'Alex Morgan' });
  });

  it('on SQLite, reuses a kept profile past its lifetime while nothing was written since; on PostgreSQL, reads it again', async () => {
    const harness = await start({ PROFILE_LOOKUP_CACHE_MS: '300' });
    // Kept from its second read (docs/decisions/keep-repeated-lookups.md).
    await send(harness, '/v3/profiles/alex');
    const first = await send(harness, '/v3/profiles/alex');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const reads = countReads(/from "profiles"/);
    try {
      const again = await send(harness, '/v3/profiles/alex');
      expect(again.body).toBe(first.body);
      expect(reads.count()).toBe(process.env.TEST_DATABASE_URL?.startsWith('postgres') ? 1 : 0);
    } finally {
      reads.restore();
    }
  });

  it('shows a change the admin command line imports when the lookup cache lets it', async () => {
    const harness = await start({ PROFILE_LOOKUP_CACHE_MS: '1000' });
    const etag = (await send(harness, '/v3/profiles/alex')).headers.get('etag');
    const file = join(folder, 'alex.json');
    writeFileSync(file, JSON.stringify([alexRecord('Alex Changed')]));
    const { code, stderr } = await adminInProcess(harness.server.built.db, 'profiles', 'import', file);
    expect(code, stderr).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await send(harness, '/v3/profiles/alex');
    expect(JSON.parse(changed.body).display_name).toBe('Alex Changed');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('repeated lookups and what the pipeline records', () => {
  it('logs and counts each request once', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let server: TestServer | undefined;
    try {
      server = await startServer({ PROFILE_LOOKUP_CACHE_MS: '60000' }, { services: ['profiles'], logger });
      const first = await fetch(`${server.url}/v3/profiles/alex`);
      for (let i = 0; i < 3; i++) await fetch(`${server.url}/v3/profiles/alex`);
      for (let i = 0; i < 2; i++) await fetch(`${server.url}/v3/profiles/alex`, { method: 'HEAD' });
      for (let i = 0; i < 2; i++)
        await fetch(`${server.url}/v3/profiles/alex`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
      const requests = lines
        .filter((line) => line.msg === 'request')
        .map(({ requestId, ms, time, pid, hostname, ...rest }) => {
          expect(typeof requestId).toBe('string');
          expect(typeof ms).toBe('number');
          return rest;
        });
      const lookup = { path: '/v3/profiles/alex', service: 'profiles', operationId: 'getProfileById', level: 30 };
      expect(requests).toEqual([
        ...Array.from({ length: 4 }, () => ({ ...lookup, method: 'GET', status: 200, msg: 'request' })),
        ...Array.from({ length: 2 }, () => ({ ...lookup, method: 'HEAD', status: 200, msg: 'request' })),
        ...Array.from({ length: 2 }, () => ({ ...lookup, method: 'GET', status: 304, msg: 'request' })),
      ]);
      const counted = (await server.built.metrics.registry.getSingleMetricAsString('http_requests_total'))
        .split('\n')
        .filter((line) => line.includes('service="profiles"'));
      expect(counted).toEqual(
        expect.arrayContaining([
          'http_requests_total{service="profiles",operation="getProfileById",status="200"} 6',
          'http_requests_total{service="profiles",operation="getProfileById",status="304"} 2',
        ]),
      );
    } finally {
      await server?.close();
    }
  });
});

describe('repeated lookups and the rate limits', () => {
  it('counts a client behind trusted proxies by the address they name', async () => {
    const harness = await start({ TRUST_PROXY: 'true', RATE_LIMIT_ANONYMOUS: '3', PROFILE_LOOKUP_CACHE_MS: '60000' });
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++)
      for (const address of ['203.0.113.1', '203.0.113.2']) {
        const answer = await send(harness, '/v3/profiles/alex', { headers: { 'X-Forwarded-For': address } });
        statuses.push(`${answer.status} ${answer.headers.get('x-ratelimit-remaining')}`);
      }
    expect(statuses).toEqual(['200 2', '200 2', '200 1', '200 1', '200 0', '200 0', '429 0', '429 0']);
  });

  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  /** What `rate_limit_rejections_total` says for anonymous profile lookups. */
  async function rejections(harness: ProfilesTestServer): Promise<number> {
    const metric = await harness.server.built.metrics.rateLimitRejections.get();
    return metric.values.find((value) => value.labels.caller === 'profiles-anonymous')?.value ?? 0;
  }

  for (const where of ['in this process', 'in Redis'] as const)
    it(`counts each request once, a refusal too (${where})`, async () => {
      if (where === 'in Redis') redis ??= await startRedis();
      const harness = await start({
        RATE_LIMIT_ANONYMOUS: '6',
        PROFILE_LOOKUP_CACHE_MS: '60000',
        ...(where === 'in Redis' ? { REDIS_URL: redis!.url, REDIS_KEY_PREFIX: `repeated-${Date.now()}` } : {}),
      });
      const remaining: string[] = [];
      for (const path of ['/v3/profiles/alex', '/v3/profiles/alex', '/v3/profiles/alex?x=1', '/v3/profiles/alex']) {
        const answer = await send(harness, path);
        expect(answer.status).toBe(200);
        remaining.push(answer.headers.get('x-ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['5', '4', '3', '2']);
      expect((await send(harness, '/v3/profiles/alex?y=2')).status).toBe(200);
      expect((await send(harness, '/v3/profiles/alex')).headers.get('x-ratelimit-remaining')).toBe('0');
      const refused = await send(harness, '/v3/profiles/alex');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(await rejections(harness)).toBe(1);
      expect((await send(harness, '/v3/profiles/alex?z=3')).status).toBe(429);
      expect(await rejections(harness)).toBe(2);
    });
});
