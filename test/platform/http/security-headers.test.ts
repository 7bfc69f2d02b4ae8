// @store-independent: its own server on SQLite, or headers and limits that no store takes part in
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../support/http.js';
import { freePort } from '../../support/processes.js';
import { startServer, type TestServer } from '../../support/server.js';

/** A path of each service, an error of each, and what no service owns. */
const PATHS = [
  '/v3/profiles/alex',
  '/v3/profiles/' + 'x'.repeat(200),
  '/avatar/' + 'a'.repeat(64) + '?d=blank&s=8',
  '/avatar/abc?s=1e3',
  '/rest/v1.1/sites/demo.example.com/posts/108',
  '/rest/v1.1/sites/nowhere.example.com',
  '/developer/v1/openapi',
  '/healthz',
  '/nothing-here',
];

let plain: TestServer;
let secure: TestServer;
beforeAll(async () => {
  plain = await startServer();
  const port = await freePort();
  secure = await startServer({ PORT: String(port), PUBLIC_URL: 'https://api.example.com' });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
});

describe('every answer of every service', () => {
  it('carries X-Content-Type-Options: nosniff, and no HSTS over plain http', async () => {
    for (const path of PATHS) {
      const res = await fetch(`${plain.url}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('carries Strict-Transport-Security when PUBLIC_URL is https', async () => {
    for (const path of PATHS) {
      const res = await fetch(`${secure.url}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('carries both on the answers written before the app sees the request (malformed, oversized), HSTS only over https', async () => {
    const malformed = ['GET /v3/profiles/alex HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'];
    const oversized = [`GET /developer/v1/session HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`];
    for (const [chunks, status] of [
      [malformed, 400],
      [oversized, 431],
    ] as const) {
      const secureAnswer = (await rawExchange(secure.url, chunks)).answer!;
      expect(secureAnswer.status).toBe(status);
      expect(secureAnswer.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(secureAnswer.headers.get('x-content-type-options')).toBe('nosniff');
      const plainAnswer = (await rawExchange(plain.url, chunks)).answer!;
      expect(plainAnswer.status).toBe(status);
      expect(plainAnswer.headers.get('strict-transport-security')).toBeNull();
      expect(plainAnswer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
