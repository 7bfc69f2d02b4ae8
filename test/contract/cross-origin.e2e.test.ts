// @store-independent
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, quietToolEnv } from '../../scripts/tools.js';
import { launchBrowser } from '../support/browser.js';
import { packedSdk } from '../support/sdk.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * The same SDK code, in Chromium, on a page of another origin, against the
 * mock and against the server started with the same settings: each call has
 * the same outcome on both (answered, or refused by the browser's CORS
 * check). The page is served from two origins: one that
 * `PUBLISHING_CORS_ORIGINS` lists, one it does not. The SDK is the packed
 * package's own ES modules, as a bundler would ship them.
 */
const exec = promisify(execFile);

let scratch: string;
let browser: Browser;
let server: TestServer;
let mock: ChildProcess;
let mockOrigin: string;
const pages: Server[] = [];
const pageOrigins: string[] = [];

/** Serves the unpacked SDK packages (`/<service>/dist/…`) and an empty page. */
function pageServer(root: string): Server {
  return createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://page').pathname));
    if (path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title>');
      return;
    }
    try {
      const body = readFileSync(join(root, path));
      response
        .writeHead(200, { 'Content-Type': extname(path) === '.js' ? 'text/javascript' : 'application/octet-stream' })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cross-origin-'));
  const unpacked = join(scratch, 'unpacked');
  const tarballs = await packedSdk();
  for (const tarball of tarballs) {
    const service = /contract-first-([a-z]+)-/.exec(tarball)![1]!;
    mkdirSync(join(unpacked, service), { recursive: true });
    await exec('tar', ['-xzf', tarball, '-C', join(unpacked, service), '--strip-components=1']);
  }
  for (let i = 0; i < 2; i++) {
    const page = pageServer(unpacked);
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pages.push(page);
    pageOrigins.push(`http://127.0.0.1:${(page.address() as AddressInfo).port}`);
  }
  // The same settings on both sides: the first page's origin may call publishing, the second may not.
  const settings = { PUBLISHING_CORS_ORIGINS: pageOrigins[0]! };
  const port = await freePort();
  mockOrigin = `http://127.0.0.1:${port}`;
  mock = spawn(process.execPath, ['scripts/mock.mjs'], {
    cwd: projectRoot,
    env: { ...quietToolEnv, ...settings, MOCK_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  [server, browser] = await Promise.all([startServer(settings), launchBrowser()]);
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${mockOrigin}/v3/profiles/alex`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (mock?.pid) process.kill(-mock.pid, 'SIGTERM');
  await server?.close();
  for (const page of pages) page.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The page's program: the SDK's calls, each answering its outcome. */
const IN_PAGE = `(async (apiBase) => {
  const load = (service) => import('/' + service + '/dist/index.js');
  const [profiles, publishing, developer] = await Promise.all([load('profiles'), load('publishing'), load('developer')]);
  const outcome = async (call) => {
    try {
      const answer = await call();
      return 'answered' + (answer.requestId ? ' with a request id' : '');
    } catch (error) {
      return 'refused (' + error.name + ')';
    }
  };
  const post = { site: 'demo.example.com', post_ID: 108 };
  const profilesClient = profiles.createClient({ baseUrl: apiBase + '/v3', retry: false });
  const keyed = profiles.createClient({ baseUrl: apiBase + '/v3', auth: 'some-key', retry: false });
  const reader = publishing.createClient({ baseUrl: apiBase + '/rest/v1.1', retry: false });
  const publisher = publishing.createClient({ baseUrl: apiBase + '/rest/v1.1', auth: 'some-token', retry: false });
  const dashboard = developer.createClient({ baseUrl: apiBase + '/developer/v1', credentials: 'include', retry: false });
  return {
    'anonymous profile': await outcome(() => profiles.getProfileById({ client: profilesClient, path: { profileIdentifier: 'alex' } })),
    'keyed profile (a preflight)': await outcome(() => profiles.getProfileById({ client: keyed, path: { profileIdentifier: 'alex' } })),
    'read a post': await outcome(() => publishing.getPost({ client: reader, path: post })),
    'restore a post (a preflight)': await outcome(() => publishing.restorePost({ client: publisher, path: post })),
    'dashboard session': await outcome(() => developer.getSession({ client: dashboard })),
  };
})(API_BASE)`;

/** Runs the SDK calls in a page of `pageOrigin` against `base`; answers each call's outcome. */
async function outcomes(pageOrigin: string, base: string): Promise<Record<string, string>> {
  const page = await browser.newPage();
  try {
    await page.goto(`${pageOrigin}/`);
    // A string, not a function: the test runner rewrites `import()` in this file's own code.
    return (await page.evaluate(IN_PAGE.replace('API_BASE', JSON.stringify(base)))) as Record<string, string>;
  } finally {
    await page.close();
  }
}

describe('the SDK in Chromium, from another origin', () => {
  it('has the same outcome against the mock as against the server, from an origin publishing allows and from one it does not', async () => {
    for (const [index, pageOrigin] of pageOrigins.entries()) {
      const [real, mocked] = [await outcomes(pageOrigin, server.url), await outcomes(pageOrigin, mockOrigin)];
      expect(mocked, `page ${index}`).toEqual(real);
      // What the settings make of it, so that "the same" is not "the same failure everywhere".
      expect(real['anonymous profile']).toBe('answered with a request id');
      expect(real['restore a post (a preflight)']).toBe(index === 0 ? 'answered' : 'refused (TypeError)');
      expect(real['dashboard session']).toBe('refused (TypeError)');
    }
  }, 120_000);
});
