import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { publishingToken } from '../support/credentials.js';
import type { TestServer } from '../support/server.js';
import { startServerBehindProxy, type TcpProxy } from '../support/tcpProxy.js';

/**
 * PostgreSQL goes away while the server runs (a proxy in front of it drops
 * every connection): requests fail fast in each service's error format,
 * readiness says so, no restore is half-applied, and service comes back by
 * itself when the database does.
 */
const TIMEOUT_MS = 1000;
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
    STORE_TIMEOUT_MS: String(TIMEOUT_MS),
    PROFILE_LOOKUP_CACHE_MS: '0',
  }));
  token = await publishingToken(server, 'admin');
  call = contractFetch(await contractChecker());
});
afterAll(() => closeAll?.());

const restore = (postId: number) =>
  call(`${server.url}/rest/v1.1/sites/1/posts/${postId}/restore`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

/** Runs a request and measures how long it took. */
async function timed(request: () => Promise<Response>) {
  const started = Date.now();
  const res = await request();
  return { res, ms: Date.now() - started };
}

describe('while the database is down', () => {
  it('answers 503 with Retry-After in each service’s error format, within the store timeout, and readyz is 503', async () => {
    expect((await call(`${server.url}/v3/profiles/alex`)).status).toBe(200);
    await proxy.cut();

    const lookup = await timed(() => call(`${server.url}/v3/profiles/alex`));
    expect(lookup.res.status).toBe(503);
    expect(lookup.res.headers.get('retry-after')).toBe('2');
    expect(await lookup.res.json()).toEqual({
      error: 'The service is temporarily unavailable; try again shortly',
      code: 'service_unavailable',
    });
    expect(lookup.ms).toBeLessThan(TIMEOUT_MS * 4);

    const restored = await timed(() => restore(101));
    expect(restored.res.status).toBe(503);
    expect(restored.res.headers.get('retry-after')).toBe('2');
    expect(await restored.res.json()).toEqual({
      error: 'service_unavailable',
      message: 'The service is temporarily unavailable; try again shortly',
    });

    const signUp = await timed(() =>
      call(`${server.url}/developer/v1/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'outage@example.com', password: 'correct horse battery staple' }),
      }),
    );
    expect(signUp.res.status).toBe(503);
    expect(signUp.res.headers.get('retry-after')).toBe('2');
    expect(await signUp.res.json()).toEqual({
      error: 'The service is temporarily unavailable; try again shortly',
      code: 'service_unavailable',
    });
    expect(signUp.ms).toBeLessThan(TIMEOUT_MS * 4);
    expect(restored.ms).toBeLessThan(TIMEOUT_MS * 4);

    const ready = await call(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
  });

  it('comes back by itself when the database does, with nothing half-applied', async () => {
    await proxy.restore();
    let lookup: Response | undefined;
    for (let i = 0; i < 50; i++) {
      lookup = await call(`${server.url}/v3/profiles/alex`);
      if (lookup.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(lookup?.status).toBe(200);
    // The restore refused during the outage left post 101 wholly in the trash; it restores now.
    const post = (await (await restore(101)).json()) as { status: string; slug: string };
    expect(post.status).toBe('publish');
    expect(post.slug).not.toMatch(/__trashed$/);
  });

  it('a cut in the middle of concurrent restores leaves each post either restored or still restorable', async () => {
    const burst = [102, 103, 104, 105].map((id) => restore(id).then((res) => res.status));
    setTimeout(() => void proxy.cut(), 5);
    const statuses = await Promise.all(burst);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    await proxy.restore();
    const expected: Record<number, string> = { 102: 'draft', 103: 'pending', 104: 'private', 105: 'future' };
    for (const id of [102, 103, 104, 105]) {
      let res: Response | undefined;
      for (let i = 0; i < 50; i++) {
        res = await restore(id);
        if (res.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const post = (await res!.json()) as { status: string; slug: string };
      expect(post.status).toBe(expected[id]);
      expect(post.slug).not.toMatch(/__trashed$/);
    }
  });
});
