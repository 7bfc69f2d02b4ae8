// @store-independent
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { configFromEnv, SERVICES } from '../src/app.js';
import { selectServices } from '../src/platform/config.js';
import { startServer } from './support/server.js';

describe('the services an app serves', () => {
  const names = SERVICES.map((module) => module.name);

  it('are the modules src/app.ts lists: the configuration knows no service name', () => {
    expect(names).toEqual(['profiles', 'publishing', 'developer']);
    expect(configFromEnv({}).services).toBeUndefined();
    // Any name passes the configuration; the app checks it against its modules.
    expect(configFromEnv({ SERVICES: ' publishing , fourth ' }).services).toEqual(['publishing', 'fourth']);
  });

  it('are every module by default, or those SERVICES names, in the order the app lists them', () => {
    expect(selectServices(undefined, SERVICES).map((m) => m.name)).toEqual(names);
    expect(selectServices(['developer', 'profiles'], SERVICES).map((m) => m.name)).toEqual(['profiles', 'developer']);
    const fourth = [...SERVICES, { name: 'fourth' }];
    expect(selectServices(['fourth'], fourth).map((m) => m.name)).toEqual(['fourth']);
  });

  it('refuse a name no module has, naming the variable and the modules', async () => {
    expect(() => selectServices(['profiles', 'nope'], SERVICES)).toThrow(
      'SERVICES must list some of profiles, publishing, developer, got "profiles,nope"',
    );
    await expect(startServer({ SERVICES: 'nope' })).rejects.toThrow(
      /SERVICES must list some of profiles, publishing, developer/,
    );
  });
});

describe("a service's onRequest step", () => {
  it("runs for the service's own paths only: profiles' CORS headers are on its lookups, not on the OAuth server's answers", async () => {
    const server = await startServer({ SERVICES: 'profiles,developer' });
    try {
      const exposed = 'access-control-expose-headers';
      // Plain fetch: a preflight is no operation of a contract, and the metadata's body is not what is looked at.
      const preflight = await fetch(`${server.url}/v3/profiles/alex`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://widget.example.org', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const metadata = await fetch(`${server.url}/.well-known/oauth-authorization-server/oauth2`);
      expect(metadata.status).toBe(200);
      expect(metadata.headers.get(exposed)).toBeNull();
      const token = await fetch(`${server.url}/oauth2/token`, { method: 'OPTIONS' });
      expect(token.headers.get(exposed)).toBeNull();
    } finally {
      await server.close();
    }
  });

  // A preflight is answered by the profiles' CORS step and is no operation of the contract: plain fetch.
  it('runs after observation: what it answers by itself is in the access log and the request metrics', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const server = await startServer(
      { SERVICES: 'profiles', METRICS_TOKEN: 'scraper-secret-token-for-tests' },
      { logger },
    );
    try {
      const preflight = await fetch(`${server.url}/v3/profiles/alex`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://widget.example.org', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(lines.filter((line) => line.msg === 'request')).toContainEqual(
        expect.objectContaining({ method: 'OPTIONS', path: '/v3/profiles/alex', status: 204 }),
      );
      const metrics = await (
        await fetch(`${server.url}/metrics`, { headers: { Authorization: 'Bearer scraper-secret-token-for-tests' } })
      ).text();
      expect(metrics).toContain('http_requests_total{service="none",operation="none",status="204"} 1');
    } finally {
      await server.close();
    }
  });
});
