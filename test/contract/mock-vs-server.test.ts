import { spawn, type ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, quietToolEnv } from '../../scripts/tools.js';
import { wrongText } from '../robustness/requests.js';
import { fuzzTargets } from '../robustness/targets.js';
import { contractChecker, type ContractChecker } from '../support/contract.js';
import { issueCredential } from '../support/credentials.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * The mock answers what the server answers: the same requests go to
 * `npm run mock` and to a real server, and their status, media type, body
 * schema (each answer checked against the contract) and error code must
 * agree. Where the mock cannot know (it keeps no state), the request to
 * the mock names the answer with `Prefer`, as a front end's test would.
 * What still differs is listed in DIFFERENCES, each with its reason; the
 * same list is in docs/mock.md.
 */
let mock: ChildProcess;
let mockOrigin: string;
let server: TestServer;
let checker: ContractChecker;
let credentials: Record<string, Record<string, string>>;

/** The origin a front end calls from: allowed by publishing's CORS setting, given to both sides. */
const APP = 'http://app.example';
/** The settings both sides run with: the same limits (out of this test's reach) and CORS origins. */
const SETTINGS = {
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_KEYED: '1000000',
  RATE_LIMIT_ACCOUNT: '1000000',
  RATE_LIMIT_AVATARS: '1000000',
  RATE_LIMIT_PUBLISHING_READS: '1000000',
  RATE_LIMIT_PUBLISHING_WRITES: '1000000',
  RATE_LIMIT_DEVELOPER: '1000000',
  RATE_LIMIT_OTHER: '1000000',
  PUBLISHING_CORS_ORIGINS: APP,
};

beforeAll(async () => {
  const port = await freePort();
  mockOrigin = `http://127.0.0.1:${port}`;
  mock = spawn(process.execPath, ['scripts/mock.mjs'], {
    cwd: projectRoot,
    env: { ...quietToolEnv, ...SETTINGS, MOCK_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  server = await startServer(SETTINGS);
  checker = await contractChecker();
  credentials = {
    profiles: (await issueCredential.profiles!(server))!,
    publishing: (await issueCredential.publishing!(server))!,
    developer: (await issueCredential.developer!(server))!,
  };
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
}, 60_000);

afterAll(async () => {
  if (mock?.pid) process.kill(-mock.pid, 'SIGTERM');
  await server?.close();
});

interface Answer {
  status: number;
  mediaType: string;
  code: string | undefined;
  /** What the options made of a JSON answer: the envelope's status, or the keys `fields` kept. */
  shape?: string;
  /** The headers a client reads, as far as they are a function of the request and the settings. */
  headers: Record<string, string | boolean | null>;
}

/** Rate-limit figures as a client checks them: a limit, what is left of it, the window's end within the next window. */
function rateLimit(res: Response): Record<string, string | boolean | null> {
  const limit = res.headers.get('x-ratelimit-limit');
  if (limit === null || res.status >= 400) return {};
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  return {
    limit,
    remainingWithin: Number(res.headers.get('x-ratelimit-remaining')) < Number(limit),
    resetLive: reset >= now - 5 && reset <= now + 3600 + 5,
  };
}

/** One request to one side; the answer checked against the contract. */
async function ask(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const res = await fetch(`${origin}${path}`, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // A CORS preflight is the HTTP layer's, not an operation of the contract.
  if (!(method === 'OPTIONS' && headers['Access-Control-Request-Method']))
    checker.check(method, new URL(`http://side${path}`), res.status, res.headers, bytes.toString('utf8'), bytes);
  let code: string | undefined;
  let shape: string | undefined;
  if (mediaType === 'application/json' && res.status >= 400) {
    const parsed = JSON.parse(bytes.toString('utf8')) as { code?: string; error?: string };
    code = parsed.code ?? parsed.error;
  } else if (mediaType === 'application/json' && bytes.length) {
    const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (/[?&]http_envelope=/.test(path)) shape = `envelope ${String(parsed.code)}`;
    else if (/[?&]fields=/.test(path)) shape = Object.keys(parsed).join(',');
  } else if (mediaType === 'application/javascript') {
    shape = /^\/\*\*\/(\w+)\(/.exec(bytes.toString('utf8'))?.[1];
  }
  const cors = Object.fromEntries(
    [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
      'access-control-allow-methods',
    ].map((name) => [name, res.headers.get(name)]),
  );
  return {
    status: res.status,
    mediaType,
    code,
    ...(shape === undefined ? {} : { shape }),
    headers: {
      ...cors,
      requestId: Boolean(res.headers.get('x-request-id')),
      ...(res.status < 400 ? { 'cache-control': res.headers.get('cache-control') } : {}),
      ...rateLimit(res),
    },
  };
}

interface Case {
  name: string;
  method: string;
  path: string;
  /** Which service's valid credential to send, if any. */
  as?: 'profiles' | 'publishing' | 'developer';
  headers?: Record<string, string>;
  body?: string;
  /** What the mock is asked for: the answer the server gives this request for reasons of state. */
  prefer?: string;
  /** Sent again with `If-None-Match` naming the first answer's `ETag` (each side its own). */
  etag?: boolean;
}

const ALEX = '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110';
const json = { 'content-type': 'application/json' };

/** Each documented success and error of each operation. */
const DOCUMENTED: Case[] = [
  { name: 'anonymous lookup', method: 'GET', path: '/v3/profiles/alex' },
  { name: 'keyed lookup', method: 'GET', path: '/v3/profiles/alex', as: 'profiles', prefer: 'example=authenticated' },
  { name: 'unknown profile', method: 'GET', path: '/v3/profiles/nobody-at-all', prefer: 'code=404' },
  { name: 'identifier too long', method: 'GET', path: `/v3/profiles/${'x'.repeat(200)}` },
  { name: 'avatar', method: 'GET', path: `/avatar/${ALEX}?s=80` },
  { name: 'avatar of nobody, d=404', method: 'GET', path: `/avatar/${'0'.repeat(64)}?d=404`, prefer: 'code=404' },
  { name: 'avatar size out of range', method: 'GET', path: `/avatar/${ALEX}?s=5000` },
  { name: 'the profiles contract', method: 'GET', path: '/v3/openapi' },
  { name: 'read a published post', method: 'GET', path: '/rest/v1.1/sites/1/posts/108', prefer: 'example=anonymous' },
  {
    name: 'read an unknown post',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/99999',
    prefer: 'code=404, example=unknown_post',
  },
  { name: 'read a site', method: 'GET', path: '/rest/v1.1/sites/1', prefer: 'example=site' },
  { name: 'restore a trashed post', method: 'POST', path: '/rest/v1.1/sites/1/posts/106/restore', as: 'publishing' },
  { name: 'restore without a token', method: 'POST', path: '/rest/v1.1/sites/1/posts/106/restore' },
  {
    name: 'restore an unknown post',
    method: 'POST',
    path: '/rest/v1.1/sites/1/posts/99999/restore',
    as: 'publishing',
    prefer: 'code=404, example=unknown_post',
  },
  {
    name: 'restore on an unknown site',
    method: 'POST',
    path: '/rest/v1.1/sites/nowhere.example/posts/106/restore',
    as: 'publishing',
    prefer: 'code=404, example=unknown_blog',
  },
  { name: 'restore, post_ID 0', method: 'POST', path: '/rest/v1.1/sites/1/posts/0/restore', as: 'publishing' },
  {
    name: 'restore, a non-numeric post_ID (no route)',
    method: 'POST',
    path: '/rest/v1.1/sites/1/posts/abc/restore',
    as: 'publishing',
  },
  { name: 'trash without a token', method: 'POST', path: '/rest/v1.1/sites/1/posts/108/delete' },
  { name: 'the publishing contract', method: 'GET', path: '/rest/v1.1/openapi' },
  { name: 'applications without a session', method: 'GET', path: '/developer/v1/applications' },
  { name: 'applications of a session', method: 'GET', path: '/developer/v1/applications', as: 'developer' },
  {
    name: 'log-in with a malformed body',
    method: 'POST',
    path: '/developer/v1/session',
    headers: json,
    body: JSON.stringify({ email: 'not an address' }),
  },
  { name: 'unknown profile, the mock not told', method: 'GET', path: '/v3/profiles/nobody-at-all' },
  {
    name: 'restore an unknown post, the mock not told',
    method: 'POST',
    path: '/rest/v1.1/sites/1/posts/99999/restore',
    as: 'publishing',
  },
  {
    name: 'log-in with a wrong password',
    method: 'POST',
    path: '/developer/v1/session',
    headers: json,
    body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password here' }),
  },
  // Options that change the answer, and the headers a client reads.
  {
    name: 'a post, some fields',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/108?fields=ID,status',
    prefer: 'example=anonymous',
  },
  {
    name: 'a post, enveloped',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/108?http_envelope=1&fields=ID',
    prefer: 'example=anonymous',
  },
  {
    name: 'an unknown post, enveloped',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/99999?http_envelope=true',
    prefer: 'code=404, example=unknown_post',
  },
  {
    name: 'a post, pretty',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/108?pretty=1&fields=ID',
    prefer: 'example=anonymous',
  },
  {
    name: 'a post as JSONP',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/108?callback=show',
    prefer: 'example=anonymous',
  },
  { name: 'a site as JSONP', method: 'GET', path: '/rest/v1.1/sites/1?callback=show', prefer: 'example=site' },
  {
    name: 'a post, from an origin not allowed',
    method: 'GET',
    path: '/rest/v1.1/sites/1/posts/108',
    headers: { Origin: 'http://other.example' },
    prefer: 'example=anonymous',
  },
  {
    name: 'a profile, from any origin',
    method: 'GET',
    path: '/v3/profiles/alex',
    headers: { Origin: 'http://other.example' },
  },
  { name: 'a profile, unchanged since its ETag', method: 'GET', path: '/v3/profiles/alex', etag: true },
  {
    name: 'preflight of a profile lookup',
    method: 'OPTIONS',
    path: '/v3/profiles/alex',
    headers: { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
  },
  {
    name: 'preflight of a restore',
    method: 'OPTIONS',
    path: '/rest/v1.1/sites/1/posts/106/restore',
    headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
  },
  {
    name: 'preflight of a restore, from an origin not allowed',
    method: 'OPTIONS',
    path: '/rest/v1.1/sites/1/posts/106/restore',
    headers: { Origin: 'http://other.example', 'Access-Control-Request-Method': 'POST' },
  },
  {
    name: 'preflight of a log-in',
    method: 'OPTIONS',
    path: '/developer/v1/session',
    headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  },
  { name: 'a path no operation serves, profiles', method: 'GET', path: '/v3/nothing-here' },
  { name: 'a path no operation serves, publishing', method: 'GET', path: '/rest/v1.1/nothing-here' },
  { name: 'a path no operation serves, developer', method: 'GET', path: '/developer/v1/nothing-here' },
];

/**
 * Answers that differ on purpose, by case name, with the reason. A case
 * listed here must still differ (the test says when a difference is gone).
 */
const DIFFERENCES: Record<string, string> = {
  'unknown profile, the mock not told':
    'the mock keeps no data: every identifier finds the example profile unless the request asks for `Prefer: code=404`',
  'restore an unknown post, the mock not told':
    'the mock keeps no data: every post restores to the example post unless the request asks for the 404',
  'log-in with a wrong password':
    'the mock keeps no accounts: any well-formed log-in succeeds unless the request asks for `Prefer: code=401`',
};
/** Differences of whole families of requests. */
const DIFFERENT_FAMILIES: [RegExp, string][] = [
  [
    /^getPostBySlug: /,
    "Prism routes no path with a literal colon before a template (`/posts/slug:{post_slug}`): the mock answers the endpoint layer's empty 404 there",
  ],
  [
    /^get(Category|Tag)BySlug: /,
    "Prism routes no path with a literal colon before a template (`/categories/slug:{term_slug}`, `/tags/slug:{term_slug}`): the mock answers the endpoint layer's empty 404 there",
  ],
  [
    /^(get|update|delete)TaxonomyTerm: /,
    "Prism routes no path with a literal colon before a template (`/taxonomies/{taxonomy}/terms/slug:{term_slug}` and its `/delete`): the mock answers the endpoint layer's empty 404 there",
  ],
  [
    /^(update|delete)(Category|Tag): /,
    "Prism routes no path with a literal colon before a template (the term edits and deletions on `/categories/slug:{term_slug}`, `/tags/slug:{term_slug}` and their `/delete`): the mock answers the endpoint layer's empty 404 there",
  ],
  [
    /^associatedEmail: /,
    'the /me reads need an OAuth token: the server refuses a request without one (401) before it reads the query; the mock checks no credential, so it validates the query first (this comparison calls profiles with an API key, no OAuth token)',
  ],
  [
    /^getAvatar: query (s|size)=/,
    'the server takes `s` and `size` as plain decimal digits only, as the real service does; Prism reads the integer schema as JavaScript numbers do (`1 `, `1e3`, `0x10`)',
  ],
];
const differenceOf = (name: string) =>
  DIFFERENCES[name] ?? DIFFERENT_FAMILIES.find(([pattern]) => pattern.test(name))?.[1];

/** The bad inputs of the fuzz generators: each query parameter of each operation given a value its schema refuses (fixed seed). */
function badInputs(): Case[] {
  const cases: Case[] = [];
  const constrained = (schema: object | undefined) =>
    !!schema &&
    ['enum', 'pattern', 'maxLength', 'minLength', 'minimum', 'maximum'].some(
      (key) => key in schema || (schema as { type?: string }).type === 'integer',
    );
  for (const target of fuzzTargets(server.built.services)) {
    const exampleOf = (name: string) => {
      const parameter = target.parameters.find((p) => p.name === name && p.in === 'path');
      return String(parameter?.example ?? Object.values(parameter?.examples ?? {})[0]?.value ?? '1');
    };
    const pathWith = (replace: Record<string, string>) =>
      `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(replace[name] ?? exampleOf(name)))}`;
    const as = target.service.name as Case['as'];
    const method = target.operation.method;
    for (const parameter of target.parameters.filter((p) => constrained(p.schema))) {
      const [value] = fc.sample(wrongText(parameter.schema), { numRuns: 1, seed: 42 });
      const name = `${target.operation.operationId}: ${parameter.in} ${parameter.name}=${JSON.stringify(value)}`;
      if (parameter.in === 'query') {
        const path = pathWith({});
        cases.push({
          name,
          method,
          as,
          path: `${path}${path.includes('?') ? '&' : '?'}${parameter.name}=${encodeURIComponent(value!)}`,
        });
      } else if (parameter.in === 'path') {
        cases.push({ name, method, as, path: pathWith({ [parameter.name]: value! }) });
      }
    }
  }
  return cases;
}

async function compare(test: Case) {
  // A front end's origin on every request but the dashboard's (whose Origin check would refuse it as a cross-site write).
  const headers = {
    ...(test.path.startsWith('/developer/') ? {} : { Origin: APP }),
    ...(test.as ? credentials[test.as] : {}),
    ...test.headers,
  };
  const revalidated = async (origin: string, sent: Record<string, string>) => {
    if (!test.etag) return sent;
    const etag = (await fetch(`${origin}${test.path}`, { headers: sent })).headers.get('etag');
    return { ...sent, 'If-None-Match': etag ?? '' };
  };
  const real = await ask(server.url, test.method, test.path, await revalidated(server.url, headers), test.body);
  const mockHeaders = { ...headers, ...(test.prefer ? { Prefer: test.prefer } : {}) };
  const mocked = await ask(mockOrigin, test.method, test.path, await revalidated(mockOrigin, mockHeaders), test.body);
  return { real, mocked };
}

describe('the mock answers what the server answers', () => {
  it.each(DOCUMENTED.map((test) => [test.name, test] as const))('%s', async (name, test) => {
    const { real, mocked } = await compare(test);
    if (differenceOf(name)) {
      expect(mocked, `listed as a difference: ${differenceOf(name)}`).not.toEqual(real);
      return;
    }
    expect(JSON.stringify(mocked, null, 1)).toEqual(JSON.stringify(real, null, 1));
  });

  it('for the bad inputs of the fuzz generators', async () => {
    const cases = badInputs();
    expect(cases.length).toBeGreaterThan(10);
    const differing: string[] = [];
    // A few at a time (refused values, no writes: their order does not matter).
    for (let start = 0; start < cases.length; start += 8) {
      await Promise.all(
        cases.slice(start, start + 8).map(async (test) => {
          const { real, mocked } = await compare(test);
          if (JSON.stringify(real) !== JSON.stringify(mocked) && !differenceOf(test.name)) {
            differing.push(`${test.name}: server ${JSON.stringify(real)}, mock ${JSON.stringify(mocked)}`);
          }
        }),
      );
    }
    expect(differing.sort()).toEqual([]);
    // Many cases, each a request to the server and one to the mock (a process of its own): more than the suite's test timeout on a loaded machine.
  }, 300_000);
});
