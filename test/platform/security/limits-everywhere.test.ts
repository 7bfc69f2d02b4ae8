import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * Every route is limited, its refusals included: answers to refused
 * credentials (401), to paths no operation takes (404) and to the docs
 * count against the client address like any other, so guessing tokens or
 * cookies, or scanning, costs the guesser's budget. Every answer is checked
 * against the contract (outside the APIs the checker has nothing to check).
 */
let server: TestServer;
let checked: typeof fetch;
const LIMIT = 3;

beforeAll(async () => {
  server = await startServer({
    RATE_LIMIT_PUBLISHING_WRITES: String(LIMIT),
    RATE_LIMIT_DEVELOPER: String(LIMIT),
    RATE_LIMIT_OTHER: String(LIMIT),
  });
  checked = contractFetch(await contractChecker());
});
afterAll(() => server.close());

/** `LIMIT` + 1 requests: their statuses and the last answer. */
async function statuses(path: string, init: RequestInit) {
  const seen: number[] = [];
  let last!: Response;
  for (let i = 0; i <= LIMIT; i++) {
    last = await checked(`${server.url}${path}`, init);
    await last.arrayBuffer();
    seen.push(last.status);
  }
  return { seen, last };
}

function expectRefusedWithHeaders(last: Response) {
  expect(last.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('refusals count against the client address', () => {
  it('a publishing restore with random tokens: 401, then 429', async () => {
    const { seen, last } = await statuses('/rest/v1.1/sites/1/posts/1/restore', {
      method: 'POST',
      headers: { authorization: `Bearer ${'x'.repeat(40)}` },
    });
    expect(seen).toEqual([...Array(LIMIT).fill(401), 429]);
    expectRefusedWithHeaders(last);
  });

  it('the dashboard session with random cookies: 401 with the rate-limit headers, then 429', async () => {
    const { seen, last } = await statuses('/developer/v1/session', {
      headers: { cookie: `dev_session=${'A'.repeat(43)}` },
    });
    expect(seen).toEqual([...Array(LIMIT).fill(401), 429]);
    expectRefusedWithHeaders(last);
  });
});

describe('what no operation answers counts against the address’s other limit', () => {
  it('docs pages and unknown paths, one budget: 404s and pages, then 429 with the headers', async () => {
    const answers: number[] = [];
    for (const path of ['/docs/profiles', '/no/such/page', '/v3/no-such-operation']) {
      const res = await checked(`${server.url}${path}`);
      await res.arrayBuffer();
      answers.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    }
    expect(answers).toEqual([200, 404, 404]);
    const refused = await checked(`${server.url}/docs/profiles`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too many requests; try again later', code: 'rate_limit_exceeded' });
    expectRefusedWithHeaders(refused);
  });
});
