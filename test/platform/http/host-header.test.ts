// @store-independent
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The `Host` header is the client's to write: it never reaches the docs
 * page's Content-Security-Policy or a served contract's `servers` when
 * `PUBLIC_URL` is set; without it only a plain host and port does, and the
 * answer says it depends on it (`Vary: Host`).
 */
const HOSTILE = "x.example; script-src 'unsafe-inline'";

/** A GET with a Host header of our choosing (fetch does not let a caller set it). */
function get(
  server: TestServer,
  path: string,
  host: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const scriptSrc = (policy: unknown) => /script-src ([^;]*)/.exec(String(policy))?.[1];
const CONTRACT_PATHS = [
  '/v3/openapi',
  '/rest/v1.1/openapi',
  '/developer/v1/openapi',
  '/docs/profiles/openapi.json',
  '/docs/developer/openapi.yaml',
];

describe('with PUBLIC_URL set', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: 'https://api.example.com' });
  });
  afterAll(() => server.close());

  it('the docs page names PUBLIC_URL in its policy, whatever Host says', async () => {
    const page = await get(server, '/docs/profiles', HOSTILE);
    expect(page.status).toBe(200);
    expect(scriptSrc(page.headers['content-security-policy'])).toBe('https://api.example.com/docs/assets/');
    expect(String(page.headers['content-security-policy'])).not.toContain('x.example');
  });

  it.each(CONTRACT_PATHS)('%s names PUBLIC_URL as its server, never the Host', async (path) => {
    const contract = await get(server, path, 'evil.example');
    expect(contract.status).toBe(200);
    expect(contract.body).toContain('https://api.example.com');
    expect(contract.body).not.toContain('evil.example');
  });
});

describe('without PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('the docs page names a plain Host, and varies on it', async () => {
    const page = await get(server, '/docs/profiles', 'docs.example:8080');
    expect(scriptSrc(page.headers['content-security-policy'])).toBe('http://docs.example:8080/docs/assets/');
    expect(String(page.headers.vary)).toMatch(/\bHost\b/i);
  });

  it('the dashboard page names a plain Host, and varies on it', async () => {
    const page = await get(server, '/developers', 'docs.example:8080');
    expect(scriptSrc(page.headers['content-security-policy'])).toBe('http://docs.example:8080/developers/app.js');
    expect(String(page.headers.vary)).toMatch(/\bHost\b/i);
  });

  it('a Host that is no plain host names no script at all: nothing is spliced into the policy', async () => {
    const page = await get(server, '/docs/profiles', HOSTILE);
    expect(page.status).toBe(200);
    expect(scriptSrc(page.headers['content-security-policy'])).toBe("'none'");
    expect(String(page.headers['content-security-policy'])).not.toContain('x.example');
  });

  it.each(CONTRACT_PATHS)('%s names a plain Host, never a hostile one, and varies on it', async (path) => {
    const plain = await get(server, path, 'docs.example:8080');
    expect(plain.body).toContain('http://docs.example:8080');
    expect(String(plain.headers.vary)).toMatch(/\bHost\b/i);
    const hostile = await get(server, path, 'evil.example/"><x');
    expect(hostile.status).toBe(200);
    expect(hostile.body).not.toContain('evil.example');
  });

  it.each(CONTRACT_PATHS.slice(0, 3))(
    '%s answers each Host its own servers, however many Hosts came before (each moved document is kept for a few)',
    async (path) => {
      const hosts = Array.from({ length: 12 }, (_, n) => `h${n}.example:8080`);
      const first = await get(server, path, hosts[0]!);
      for (const host of [...hosts, ...hosts.slice().reverse()]) {
        const answer = await get(server, path, host);
        const { servers: written } = JSON.parse(answer.body) as {
          servers: { url: string; variables?: Record<string, { default: string }> }[];
        };
        // Each server's URL with its variables at their defaults (`{base_url}`), as a reader's tool fills it in.
        const servers = written.map((one) =>
          one.url.replace(/\{([^}]+)\}/g, (_, name: string) => one.variables?.[name]?.default ?? ''),
        );
        expect(servers.length, host).toBeGreaterThan(0);
        for (const url of servers) expect(url, host).toContain(`http://${host}`);
      }
      expect((await get(server, path, hosts[0]!)).body).toBe(first.body);
    },
  );
});
