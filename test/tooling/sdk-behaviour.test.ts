import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_SCOPE } from '../../scripts/build-sdk.js';
import { projectRoot } from '../../scripts/tools.js';
import { installSdk } from '../support/sdk.js';

/**
 * What the SDK packages add around fetch (retries, timeout, User-Agent, the
 * request id, interceptors), each against a stub server that answers by the
 * scenario named in the base URL's first segment and records every request.
 * The same program runs from a CommonJS consumer (`.cjs`, `require`) and an
 * ES module one (`.mjs`, `import`) that installed the packed tarballs.
 */
const exec = promisify(execFile);
const PROFILES_VERSION = /\n {2}version: (\S+)/.exec(
  readFileSync(join(projectRoot, 'openapi', 'profiles.yaml'), 'utf8'),
)![1]!;

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  at: number;
}

let scratch: string;
let consumer: string;
let stub: Server;
let base: string;
const seen = new Map<string, Seen[]>();
const held: ServerResponse[] = [];

/** The stub's answers, by scenario: `n` is the request's number in its scenario, from 1. */
function answer(scenario: string, n: number, response: ServerResponse): void {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': `${scenario}-${n}`, ...headers });
    response.end(JSON.stringify(body));
  };
  const ok = () => json(200, { display_name: 'Alex', ID: 108, status: 'publish' });
  const kind = scenario.replace(/^(cjs|mjs)-/, '');
  if (kind === 'hang') return void held.push(response);
  if (kind === 'slow') return void setTimeout(ok, 300);
  if (kind === 'missing') return json(404, { error: 'not_found', code: 'not_found', message: 'no such profile' });
  if (kind === 'gateway') return json(502, { error: 'bad_gateway' });
  if (kind === 'busy-long') return json(429, { error: 'rate_limited' }, { 'Retry-After': '3600' });
  if (kind === 'busy-backoff') return n === 1 ? json(503, { error: 'unavailable' }) : ok();
  if (kind.startsWith('busy') && n === 1)
    return json(kind.includes('429') ? 429 : 503, { error: 'busy' }, { 'Retry-After': '1' });
  if (kind.startsWith('always')) return json(503, { error: 'unavailable' }, { 'Retry-After': '0' });
  ok();
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sdk-behaviour-'));
  consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  stub = createServer((request, response) => {
    const [, scenario = '', ...rest] = (request.url ?? '').split('/');
    const list = seen.get(scenario) ?? [];
    list.push({
      method: request.method ?? '',
      path: `/${rest.join('/')}`,
      headers: request.headers,
      at: performance.now(),
    });
    seen.set(scenario, list);
    request.resume();
    answer(scenario, list.length, response);
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  await installSdk(consumer, { name: 'sdk-consumer', private: true });
}, 180_000);

afterAll(async () => {
  for (const response of held) response.destroy();
  await new Promise((resolve) => stub?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The consumer's program, the same for both module systems; `kind` prefixes its scenarios. */
function body(kind: string): string {
  return `
const BASE = ${JSON.stringify(base)};
const at = (scenario) => BASE + '/${kind}-' + scenario;
const log = (...parts) => console.log(parts.join(' '));
const fails = (promise) => promise.then((r) => 'resolved ' + r.status, (error) => 'threw ' + (error && error.name) + ' ' + (error && (error.status ?? '')) + ' ' + (error && (error.requestId ?? '')));

async function main() {
  const alex = { path: { profileIdentifier: 'alex' } };
  const post = { path: { site: 'demo.example.com', post_ID: 108 } };
  const p = (scenario, config) => profiles.createClient({ baseUrl: at(scenario) + '/v3', ...config });
  const w = (scenario, config) => publishing.createClient({ baseUrl: at(scenario), auth: 'token', ...config });

  log('user-agent', (await profiles.getProfileById({ client: p('ua'), ...alex })).status, profiles.defaultUserAgent);
  await profiles.getProfileById({ client: p('ua-client', { userAgent: 'my-app/1.0' }), ...alex });
  await profiles.getProfileById({ client: p('ua-call', { userAgent: 'my-app/1.0' }), ...alex, userAgent: 'my-job/2.0' });

  const retried = await profiles.getProfileById({ client: p('busy503'), ...alex });
  log('busy503', retried.status, retried.requestId);
  log('busy429', (await profiles.getProfileById({ client: p('busy429'), ...alex })).status);
  log('busy-backoff', (await publishing.getPost({ client: w('busy-backoff', { retry: { backoff: 50 } }), ...post })).status);
  const long = await profiles.getProfileById({ client: p('busy-long'), ...alex });
  log('busy-long', long.status, long.requestId);
  log('always', (await profiles.getProfileById({ client: p('always', { retry: { retries: 3 } }), ...alex })).status);
  log('always-off-client', (await profiles.getProfileById({ client: p('always-off-client', { retry: false }), ...alex })).status);
  log('always-off-call', (await profiles.getProfileById({ client: p('always-off-call'), ...alex, retry: { retries: 0 } })).status);

  log('busy-delete', (await publishing.deletePost({ client: w('busy-delete'), ...post })).status);
  log('busy-restore', (await publishing.restorePost({ client: w('busy-restore'), ...post })).status);
  log('busy-restore-client-unsafe', (await publishing.restorePost({ client: w('busy-restore-client-unsafe', { retry: { unsafe: true } }), ...post })).status);
  log('busy-restore-call-unsafe', (await publishing.restorePost({ client: w('busy-restore-call-unsafe'), ...post, retry: { unsafe: true } })).status);

  log('hang', await fails(profiles.getProfileById({ client: p('hang', { timeout: 200 }), ...alex })));
  log('slow', await fails(profiles.getProfileById({ client: p('slow', { timeout: 100 }), ...alex })));
  log('slow-call', await fails(profiles.getProfileById({ client: p('slow-call', { timeout: 100 }), ...alex, timeout: false })));
  const controller = new AbortController();
  const aborted = fails(profiles.getProfileById({ client: p('hang'), ...alex, signal: controller.signal }));
  setTimeout(() => controller.abort(), 50);
  log('aborted', await aborted);

  const missing = await profiles.getProfileById({ client: p('missing'), ...alex });
  log('missing', missing.status, missing.ok, missing.requestId, missing.error.code);
  log('gateway', await fails(profiles.getProfileById({ client: p('gateway'), ...alex })));

  const traced = p('busy-intercepted');
  let answers = 0;
  traced.interceptors.request.use((request) => { request.headers.set('X-Trace', 'on'); return request; });
  traced.interceptors.response.use((response) => { answers += 1; return response; });
  log('intercepted', (await profiles.getProfileById({ client: traced, ...alex })).status, answers);

  profiles.client.setConfig({ baseUrl: at('default-client') + '/v3', userAgent: 'default/3' });
  log('default-client', (await profiles.getProfileById(alex)).status);
}
main().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
`;
}

const EXPECTED = (kind: string) => [
  `user-agent 200 ${SDK_SCOPE}/profiles/${PROFILES_VERSION}`,
  `busy503 200 ${kind}-busy503-2`,
  'busy429 200',
  'busy-backoff 200',
  `busy-long 429 ${kind}-busy-long-1`,
  'always 503',
  'always-off-client 503',
  'always-off-call 503',
  'busy-delete 503',
  'busy-restore 503',
  'busy-restore-client-unsafe 503',
  'busy-restore-call-unsafe 200',
  'hang threw TimeoutError  ',
  'slow threw TimeoutError  ',
  'slow-call resolved 200',
  'aborted threw AbortError  ',
  `missing 404 false ${kind}-missing-1 not_found`,
  `gateway threw UnexpectedStatusError 502 ${kind}-gateway-1`,
  'intercepted 200 1',
  'default-client 200',
];

const requests = (kind: string, scenario: string) => seen.get(`${kind}-${scenario}`) ?? [];

describe.each(['cjs', 'mjs'])('the SDK from a %s consumer', (kind) => {
  let stdout: string[];
  beforeAll(async () => {
    const header =
      kind === 'cjs'
        ? `const profiles = require('${SDK_SCOPE}/profiles');\nconst publishing = require('${SDK_SCOPE}/publishing');\n`
        : `import * as profiles from '${SDK_SCOPE}/profiles';\nimport * as publishing from '${SDK_SCOPE}/publishing';\n`;
    writeFileSync(join(consumer, `main.${kind}`), header + body(kind));
    const run = await exec(process.execPath, [join(consumer, `main.${kind}`)], { cwd: consumer });
    stdout = run.stdout.trim().split('\n');
  }, 60_000);

  it('answers every call as documented', () => {
    expect(stdout).toEqual(EXPECTED(kind));
  });

  it('names the package and version in User-Agent, unless the client or the call names another', () => {
    expect(requests(kind, 'ua')[0]!.headers['user-agent']).toBe(`${SDK_SCOPE}/profiles/${PROFILES_VERSION}`);
    expect(requests(kind, 'ua-client')[0]!.headers['user-agent']).toBe('my-app/1.0');
    expect(requests(kind, 'ua-call')[0]!.headers['user-agent']).toBe('my-job/2.0');
    expect(requests(kind, 'default-client')[0]!.headers['user-agent']).toBe('default/3');
  });

  it('retries a GET after 429 and 503 as long as Retry-After says, and by backoff without one', () => {
    for (const scenario of ['busy503', 'busy429']) {
      const [first, second, ...more] = requests(kind, scenario);
      expect(more).toHaveLength(0);
      // Retry-After: 1 is a wait of at least a second (timers are never early; 5 ms for the clocks' rounding).
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(995);
    }
    expect(requests(kind, 'busy-backoff')).toHaveLength(2);
    expect(requests(kind, 'busy-long')).toHaveLength(1);
    expect(requests(kind, 'always')).toHaveLength(4);
  });

  it('does not retry when the client or the call turns it off', () => {
    expect(requests(kind, 'always-off-client')).toHaveLength(1);
    expect(requests(kind, 'always-off-call')).toHaveLength(1);
  });

  it('never retries a delete or a restore unless the call itself says so', () => {
    expect(requests(kind, 'busy-delete')).toHaveLength(1);
    expect(requests(kind, 'busy-restore')).toHaveLength(1);
    expect(requests(kind, 'busy-restore-client-unsafe')).toHaveLength(1);
    const [first, second] = requests(kind, 'busy-restore-call-unsafe');
    expect([first!.method, second!.method, second!.path]).toEqual([
      'POST',
      'POST',
      '/sites/demo.example.com/posts/108/restore',
    ]);
  });

  it('runs interceptors once per call around the retries', () => {
    const [first, second] = requests(kind, 'busy-intercepted');
    expect([first!.headers['x-trace'], second!.headers['x-trace']]).toEqual(['on', 'on']);
  });
});
