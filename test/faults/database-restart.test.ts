import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { publishingToken } from '../support/credentials.js';
import type { TestServer } from '../support/server.js';
import { startServerBehindProxy, type TcpProxy } from '../support/tcpProxy.js';
import { bounded, createTrashedPosts, expectWhole, until200 } from './support.js';

/**
 * PostgreSQL stops and comes back while restores and lookups are under way
 * (a proxy in front of it drops every connection and refuses new ones):
 * every answer is a 200 or a 503 with `Retry-After` in the service's format,
 * service comes back without a restart, no restore is half-applied, and the
 * rate limit allows exactly its count.
 */
const POSTS = Array.from({ length: 16 }, (_, i) => 60_000 + i);
const LIMIT = 20;
const LOOKUPS = 36;
let proxy: TcpProxy;
let closeAll: (() => Promise<void>) | undefined;
let server: TestServer;
let call: typeof fetch;
let token: string;

beforeAll(async () => {
  ({
    proxy,
    server,
    close: closeAll,
  } = await startServerBehindProxy({
    STORE_TIMEOUT_MS: '800',
    STORE_RETRY_AFTER_SECONDS: '1',
    PROFILE_LOOKUP_CACHE_MS: '0',
    RATE_LIMIT_ANONYMOUS: String(LIMIT),
  }));
  await createTrashedPosts(server.built.db, POSTS);
  token = await publishingToken(server, 'admin');
  call = contractFetch(await contractChecker());
}, 120_000);
afterAll(() => closeAll?.());

const restore = (id: number) =>
  call(`${server.url}/rest/v1.1/sites/1/posts/${id}/restore`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

describe('the database stopped and restarted under load', () => {
  it('answers 200 or 503 in format, recovers by itself, applies every restore wholly, and counts requests exactly', async () => {
    // The outage: 300 ms into the load, for 1.2 s.
    let back = 0;
    setTimeout(() => {
      void proxy.cut();
      setTimeout(() => void proxy.restore().then(() => (back = Date.now())), 1200);
    }, 300);
    const [restores, lookups] = await Promise.all([
      bounded(POSTS.length, 4, async (i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 25));
        const res = await restore(POSTS[i]!);
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as Record<string, unknown>,
        };
      }),
      bounded(LOOKUPS, 2, async (i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 40));
        const res = await call(`${server.url}/v3/profiles/alex`);
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as Record<string, unknown>,
        };
      }),
    ]);

    const loaded = Date.now();
    for (const answer of restores) {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.retryAfter).toBe('1');
        expect(answer.body).toEqual({
          error: 'service_unavailable',
          message: 'The service is temporarily unavailable; try again shortly',
        });
      }
    }
    for (const answer of lookups) {
      expect([200, 429, 503]).toContain(answer.status);
      if (answer.status === 503)
        expect(answer.body).toEqual({
          error: 'The service is temporarily unavailable; try again shortly',
          code: 'service_unavailable',
        });
    }
    expect(restores.some((answer) => answer.status === 503) || lookups.some((answer) => answer.status === 503)).toBe(
      true,
    );
    // Exact counts: every lookup admitted by the limiter (answered 200, or 503 while the store was away) counts; the rest are 429.
    expect(lookups.filter((answer) => answer.status !== 429)).toHaveLength(LIMIT);
    expect(lookups.filter((answer) => answer.status === 429)).toHaveLength(LOOKUPS - LIMIT);

    // Nothing half-applied, whatever the answer said.
    const db = server.built.db;
    await until200(() => call(`${server.url}/readyz`));
    // Ready again within a few seconds of the database's return (or of the load's end, if later).
    expect(Date.now() - Math.max(back, loaded)).toBeLessThan(5000);
    await expectWhole(db, POSTS);
    // Each restore answered 503 is sent again and goes through, without a restart.
    for (const [i, answer] of restores.entries()) {
      if (answer.status === 503) expect((await until200(() => restore(POSTS[i]!))).status).toBe(200);
    }
    expect(await expectWhole(db, POSTS)).toBe(POSTS.length);
  });
});
