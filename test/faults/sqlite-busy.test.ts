import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { publishingToken } from '../support/credentials.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Another connection (another process on the same SQLite file, a backup, an
 * admin shell) holds the write lock while requests run. Reads go on at full
 * speed (WAL), the event loop is never blocked by the wait, a write waits
 * asynchronously for at most STORE_BUSY_WAIT_MS and then answers 503 with
 * `Retry-After` in the service's error format, having changed nothing; once
 * the lock is released, the same write succeeds.
 */
// Long enough that a synchronous wait (which would stall every read for all of it) cannot pass for a slow machine.
const BUSY_WAIT_MS = 1500;
let dir: string;
let server: TestServer;
let holder: SqliteDatabase.Database;
let call: typeof fetch;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-busy-'));
  const file = join(dir, 'app.db');
  server = await startServer({
    DATABASE_URL: `sqlite:${file}`,
    STORE_BUSY_WAIT_MS: String(BUSY_WAIT_MS),
    STORE_RETRY_AFTER_SECONDS: '1',
    PROFILE_LOOKUP_CACHE_MS: '0',
    // The reads below go on for as long as the restore waits: as many as the machine makes. This file
    // is not the rate limit's test, so its limit is out of reach.
    RATE_LIMIT_ANONYMOUS: '1000000000',
    RATE_LIMIT_PUBLISHING_READS: '1000000000',
    RATE_LIMIT_AVATARS: '1000000000',
  });
  token = await publishingToken(server, 'admin');
  call = contractFetch(await contractChecker());
  holder = new SqliteDatabase(file);
});
afterEach(() => {
  if (holder.inTransaction) holder.exec('ROLLBACK');
});
afterAll(async () => {
  holder?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const restore = (postId: number) =>
  call(`${server.url}/rest/v1.1/sites/1/posts/${postId}/restore`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

const statusOf = (postId: number) =>
  (holder.prepare('select status from posts where id = ?').get(postId) as { status: string }).status;

describe('while another connection holds the write lock', () => {
  it('a restore waits without blocking the event loop, then answers 503 with Retry-After; reads keep answering fast', async () => {
    // Warm up (first answers compile validators).
    for (let i = 0; i < 3; i++) await (await call(`${server.url}/v3/profiles/alex`)).arrayBuffer();
    holder.exec('BEGIN IMMEDIATE');
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const restoring = restore(101).then(async (res) => ({
      res,
      ms: performance.now() - started,
      body: await res.json(),
    }));
    // Profile lookups (reads) while the restore waits: each answered quickly.
    const readMs: number[] = [];
    while (performance.now() - started < BUSY_WAIT_MS - 100) {
      const before = performance.now();
      const res = await call(`${server.url}/v3/profiles/alex`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      readMs.push(performance.now() - before);
    }
    const restored = await restoring;
    loop.disable();

    expect(restored.res.status).toBe(503);
    expect(restored.res.headers.get('retry-after')).toBe('1');
    expect(restored.body).toEqual({
      error: 'service_unavailable',
      message: 'The service is temporarily unavailable; try again shortly',
    });
    // It waited out the bound, and gave up: a wait without a bound would run into the test's timeout.
    expect(restored.ms).toBeGreaterThanOrEqual(BUSY_WAIT_MS - 50);
    expect(restored.ms).toBeLessThan(BUSY_WAIT_MS * 5);
    expect(readMs.length).toBeGreaterThan(5);
    readMs.sort((x, y) => x - y);
    // Bounds relative to the wait: a synchronous busy wait would hold every read, and the event
    // loop, for all of it; a loaded machine's pauses are a fraction of it.
    expect(readMs[Math.floor(readMs.length / 2)]).toBeLessThan(BUSY_WAIT_MS / 4);
    expect(readMs.at(-1)).toBeLessThan(BUSY_WAIT_MS / 2);
    expect(loop.max / 1e6).toBeLessThan(BUSY_WAIT_MS / 2);
    // Nothing was applied.
    expect(statusOf(101)).toBe('trash');
  });

  it('a restore succeeds once the lock is released, within the bound or after it', async () => {
    holder.exec('BEGIN IMMEDIATE');
    const waiting = restore(102);
    setTimeout(() => holder.exec('COMMIT'), 200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('draft');

    // The one refused above goes through now that nobody holds the lock.
    const again = await restore(101);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { status: string }).status).toBe('publish');
    expect(statusOf(101)).toBe('publish');
  });

  it('a dashboard sign-up (a write in the developer service) answers 503 in its own format', async () => {
    holder.exec('BEGIN IMMEDIATE');
    const res = await call(`${server.url}/developer/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'busy@example.com', password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      error: 'The service is temporarily unavailable; try again shortly',
      code: 'service_unavailable',
    });
  });
});
