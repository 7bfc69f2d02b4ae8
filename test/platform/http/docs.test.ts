// @store-independent
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYaml } from '../../../scripts/contracts.js';
import { readContract, serverPath } from '../../../scripts/contracts.js';
import { CONTRACTS } from '../../../scripts/tools.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The docs routes over HTTP (src/platform/docs/docsRoutes.ts): the reference
 * page's policy, the contract to download at the serving origin (or
 * `PUBLIC_URL`), the changelog, and the built assets. What a browser makes
 * of them is docs.e2e.test.ts.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Document = {
  servers: { url: string; variables?: unknown }[];
  paths: Record<
    string,
    Record<
      string,
      { servers?: { url: string }[]; 'x-codeSamples'?: { lang: string; label: string; source: string }[] } & Record<
        string,
        unknown
      >
    >
  >;
  info: { title: string };
};
const served = (name: string, base: string) =>
  `${base}${serverPath((readContract(name).servers as { url: string }[])[0]!)}`;

/** The directives of a Content-Security-Policy, by name. */
const directives = (policy: string | null) =>
  Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('the reference page', () => {
  it.each(CONTRACTS)(
    '/docs/%s is a small page whose only scripts are files under /docs/assets/ of this origin',
    async (name) => {
      const res = await fetch(`${server.url}/docs/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expect(html.length).toBeLessThan(10_000);
      expect(html).toContain((readContract(name).info as { title: string }).title);
      // No inline script, and every script and stylesheet is this origin's file.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^(\/|data:,$)/);
      const policy = directives(res.headers.get('content-security-policy'));
      expect(policy['script-src']).toEqual([`${server.url}/docs/assets/`]);
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['default-src']).toEqual(["'none'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      // Every file the page names is served.
      for (const [, url] of html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g))
        expect((await fetch(`${server.url}${url}`)).status).toBe(200);
    },
  );

  it('lets the try-it console call PUBLIC_URL when it is set, since the served contract names it as the server', async () => {
    const configured = await startServer({ PUBLIC_URL: 'https://api.example.com' });
    try {
      const res = await fetch(`${configured.url}/docs/profiles`);
      expect(directives(res.headers.get('content-security-policy'))['connect-src']).toEqual([
        "'self'",
        'https://api.example.com',
      ]);
      const document = (await (
        await fetch(`${configured.url}/docs/profiles/openapi.json`, { headers: { 'X-Forwarded-Host': 'evil.example' } })
      ).json()) as Document;
      expect(document.servers).toEqual([expect.objectContaining({ url: 'https://api.example.com/v3' })]);
    } finally {
      await configured.close();
    }
  });

  it('answers 404 for a service it does not serve, and other methods pass by', async () => {
    expect((await fetch(`${server.url}/docs/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/docs/profiles`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the contract to download', () => {
  it.each(CONTRACTS)(
    '/docs/%s/openapi.json and .yaml: the same document, servers at this origin with nothing left to fill in',
    async (name) => {
      const json = await fetch(`${server.url}/docs/${name}/openapi.json`);
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const document = (await json.json()) as Document;
      const yaml = await fetch(`${server.url}/docs/${name}/openapi.yaml`);
      expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
      expect(parseYaml(await yaml.text())).toEqual(document);

      expect(document.servers.map((server) => server.url)).toEqual([served(name, server.url)]);
      expect(document.servers[0]!.variables).toBeUndefined();
      const pathServers = Object.values(document.paths).flatMap(
        (item) => (item.servers ?? []) as unknown as { url: string }[],
      );
      const everyServer = [...document.servers, ...pathServers];
      for (const { url } of everyServer) expect(url).toMatch(new RegExp(`^${server.url}(/|$)`));
      // Every operation has its SDK sample, with the client at this origin.
      const contract = readContract(name);
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!(operation as { operationId?: string }).operationId) continue;
          expect(contract.paths?.[path]?.[method]).toBeDefined();
          const [sample] = operation['x-codeSamples'] ?? [];
          expect(sample).toMatchObject({ lang: 'typescript', label: 'TypeScript SDK' });
          expect(sample!.source).toContain(`baseUrl: '${served(name, server.url)}'`);
          expect(sample!.source).not.toContain('localhost:8080');
        }
      }
    },
  );

  it("moves a path's own server too (avatars, outside /v3), and names its example files by their URL here", async () => {
    const document = (await (await fetch(`${server.url}/docs/profiles/openapi.json`)).json()) as Document;
    expect(document.paths['/avatar/{hash}']!.servers).toEqual([expect.objectContaining({ url: server.url })]);
    const examples = (
      document.paths['/avatar/{hash}']!.get as {
        responses: Record<
          string,
          { content: Record<string, { examples: Record<string, { externalValue?: string }> }> }
        >;
      }
    ).responses['200']!.content['image/png']!.examples;
    const file = Object.values(examples)[0]!.externalValue!;
    expect(file).toBe(`${server.url}/docs/profiles/examples/avatar.png`);
    const image = await fetch(file);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it("is rendered with the path's servers on its operations (where the try-it console reads them) and without the files Scalar cannot show", async () => {
    const document = (await (await fetch(`${server.url}/docs/profiles/reference.json`)).json()) as Document;
    const avatar = document.paths['/avatar/{hash}']!.get as { servers: { url: string }[] };
    expect(avatar.servers).toEqual([expect.objectContaining({ url: server.url })]);
    expect(JSON.stringify(document)).not.toContain('externalValue');
  });
});

describe('the changelog', () => {
  it.each(CONTRACTS)('/docs/%s/changelog is a page without script, linked back to the reference', async (name) => {
    const res = await fetch(`${server.url}/docs/${name}/changelog`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('<script');
    expect(html).toContain(`href="/docs/${name}"`);
    expect(html).toMatch(/Changes since|No release of this contract yet/);
    const policy = directives(res.headers.get('content-security-policy'));
    expect(policy['script-src']).toBeUndefined();
    expect(policy['default-src']).toEqual(["'none'"]);
  });
});

/** A raw GET (fetch would decompress, and normalise `..` away). */
const rawGet = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const url = new URL(server.url);
      const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    },
  );

describe('the assets', () => {
  it('are served gzipped to a reader that takes it, as they are otherwise, and cached for good (their names change with their content)', async () => {
    const html = await (await fetch(`${server.url}/docs/profiles`)).text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const plain = await rawGet(script);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const zipped = await rawGet(script, { 'Accept-Encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
  });

  it('are only the built files: nothing outside dist/docs/assets, no other kind of file, never a redirect', async () => {
    for (const path of [
      '/docs/assets/../../package.json',
      '/docs/assets/%2e%2e/%2e%2e/package.json',
      '/docs/assets/..%2f..%2fpackage.json',
      '/docs/assets/scalar-0.0.0/standalone.esm.js',
      '/docs/assets/.inputs-sha256',
      '/docs/profiles/examples/..%2f..%2fprofiles.json',
    ]) {
      const res = await rawGet(path);
      expect([res.status, path]).toEqual([404, path]);
    }
  });
});
