import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.js';
import { startDashboardServer } from './support/dashboard.js';
import { sendRequest } from '../../support/http.js';

/** The page at `/developers`: served from this origin with its security headers; nothing from a CDN. */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer();
});
afterAll(() => server.close());

describe('GET /developers', () => {
  it('is the dashboard of every service, not one: its title names them, and its footer links each reference, which answers', async () => {
    const html = await (await fetch(`${server.url}/developers`)).text();
    expect(html).toContain('<title>Developer dashboard · Profiles, Publishing and sign-in</title>');
    expect(html).not.toContain('· Profiles API</title>');
    const footer = html.slice(html.indexOf('<footer'), html.indexOf('</footer>'));
    const links = [...footer.matchAll(/href="([^"]+)"/g)].map(([, href]) => href!);
    expect(links).toEqual(['/docs/profiles', '/docs/publishing', '/docs/oauth', '/docs/developer']);
    for (const link of links) expect((await fetch(`${server.url}${link}`)).status).toBe(200);
  });

  it('serves the page with a Content-Security-Policy that allows only this origin, and as script only its own file', async () => {
    const response = await fetch(`${server.url}/developers`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        `script-src ${server.url}/developers/app.js`,
        "style-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
      ]),
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('never writes what a Host header says into the policy: a host that is no plain host and port runs no script', async () => {
    const injected = await sendRequest(server.url, {
      method: 'GET',
      path: '/developers',
      headers: { Host: "x 'unsafe-inline' y" },
    });
    const policy = injected.headers.get('content-security-policy')!;
    expect(policy).not.toContain('unsafe-inline');
    expect(policy.split('; ')).toContain("script-src 'none'");
  });

  it('names PUBLIC_URL when it is set, whatever Host the request carries', async () => {
    const deployed = await startDashboardServer({ PUBLIC_URL: 'https://dev.example.test' });
    try {
      const answer = await sendRequest(deployed.url, {
        method: 'GET',
        path: '/developers',
        headers: { Host: 'evil.example:8080' },
      });
      expect(answer.headers.get('content-security-policy')!.split('; ')).toContain(
        'script-src https://dev.example.test/developers/app.js',
      );
    } finally {
      await deployed.close();
    }
  });

  it('loads its script, style and icon from this origin only, with no inline script or style', async () => {
    const html = await (await fetch(`${server.url}/developers`)).text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(references.filter((reference) => /^(https?:)?\/\//.test(reference))).toEqual([]);
    expect(references).toEqual(
      expect.arrayContaining(['/developers/app.js', '/developers/app.css', '/developers/icon.svg']),
    );
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle="/);
    expect(html).toMatch(/<html lang="en">/);
  });

  it.each([
    ['/developers/app.js', 'text/javascript; charset=utf-8'],
    ['/developers/app.css', 'text/css; charset=utf-8'],
    ['/developers/icon.svg', 'image/svg+xml'],
    ['/developers/', 'text/html; charset=utf-8'],
  ])('serves %s as %s', async (path, type) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('bundles the generated SDK rather than loading anything at run time', async () => {
    const script = await (await fetch(`${server.url}/developers/app.js`)).text();
    expect(script).not.toMatch(/\bimport\s*\(|\bfrom\s*["']/);
    expect(script).toContain('/developer/v1');
    expect(script).toContain('X-CSRF-Token');
  });

  it('answers anything else under /developers with 404', async () => {
    expect((await fetch(`${server.url}/developers/../package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/developers/index.html`)).status).toBe(404);
    expect((await fetch(`${server.url}/developers`, { method: 'POST' })).status).toBe(404);
  });
});
