// @store-independent
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractOperation } from '../../src/platform/contract/types.js';
import type { ServiceDefinition } from '../../src/platform/pipeline/service.js';
import { contractChecker, requestTarget } from '../support/contract.js';
import { issueCredential } from '../support/credentials.js';
import { rawExchange, sendRequest, type RawExchange } from '../support/http.js';
import { startServer } from '../support/server.js';
import { expectNothingInternal } from './settings.js';

/**
 * What no HTTP client library would send, over raw sockets: header blocks
 * beyond Node's 16 KiB limit, broken request lines and framing, clients that
 * never finish their headers or body, oversized bodies, junk after a
 * request. Each gets a JSON answer in the addressed service's error format
 * (declared by its contract when the request line names an operation), or
 * the connection is closed in bounded time; never a second answer, never a
 * crash.
 */
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 3000;
/** Node checks its timeouts once a second (see src/platform/server.ts). */
const CHECK_INTERVAL_MS = 1000;

const server = await startServer({
  HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
});
afterAll(() => server.close());
const checker = await contractChecker();
const services = server.built.services;

/** An operation's path with every template filled (`/sites/1/posts/1/restore`). */
const concretePath = (service: ServiceDefinition, operation: ContractOperation) =>
  `${operation.serverPath ?? service.prefix}${operation.path.replace(/\{[^}]+\}/g, '1')}`;
const everyOperation = services.flatMap((service) =>
  service.contract.operations.map((operation) => ({
    label: `${service.name} ${operation.operationId}`,
    service,
    operation,
    path: concretePath(service, operation),
  })),
);
const [profilesLike] = everyOperation;

/** Answers exactly once, in JSON, nothing internal, and as the contract declares for `method` and `path`. */
function expectOneDeclaredAnswer(exchange: RawExchange, method: string, path: string, status: number) {
  const { answer } = exchange;
  expect(answer, exchange.raw).toBeDefined();
  expect(answer!.status).toBe(status);
  expect(answer!.headers.get('content-type')).toMatch(/^application\/json/);
  expectNothingInternal(answer!, exchange.raw);
  expect(answersIn(exchange.raw), 'exactly one answer').toHaveLength(1);
  checker.check(method, requestTarget(path), answer!.status, answer!.headers, method === 'HEAD' ? '' : answer!.text);
}

/** Every answer in what the server sent (a second answer may follow a body without a line break). */
const answersIn = (raw: string) => raw.match(/HTTP\/1\.1 \d{3} [A-Z]/g) ?? [];

const request = (method: string, path: string, headers: string[] = [], body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;

/** A request of the operation, with the credential it needs, whose JSON body declares 100 bytes and sends five. */
async function unfinishedJsonBody({ service, operation, path }: (typeof everyOperation)[number]): Promise<string> {
  const credential = operation.security === 'none' ? {} : await issueCredential[service.name]?.(server);
  const headers = Object.entries({ ...credential, 'Content-Type': 'application/json', 'Content-Length': '100' });
  return request(
    operation.method,
    path,
    headers.map(([name, value]) => `${name}: ${value}`),
    '{"a":',
  );
}

/**
 * Exchanges of a group started together (in its `beforeAll`), each test
 * awaiting its own: a slow client's test waits out a timeout, and vitest
 * runs at most `maxConcurrency` (5) concurrent tests at a time, so started
 * test by test the waits added up. Slow clients all at once is also what a
 * slowloris sends.
 */
function startedTogether<T>(targets: readonly T[], start: (target: T) => Promise<RawExchange>) {
  const started = new Map<T, Promise<RawExchange>>();
  beforeAll(() => {
    for (const target of targets) {
      const exchange = start(target);
      // Awaited by its test, which reports a failure; until then, not an unhandled rejection.
      exchange.catch(() => undefined);
      started.set(target, exchange);
    }
  });
  return (target: T) => started.get(target)!;
}

describe('a header block over Node’s 16 KiB limit', () => {
  it.each(everyOperation)(
    '$label: 431 in the service’s error format, as its contract declares',
    async ({ operation, path }) => {
      const exchange = await rawExchange(server.url, [
        request(operation.method, path, [`X-Padding: ${'a'.repeat(20_000)}`]),
      ]);
      expectOneDeclaredAnswer(exchange, operation.method, path, 431);
      expect(exchange.ended).toBe('closed');
    },
  );

  it('answers HEAD without a body', async () => {
    const exchange = await rawExchange(server.url, [
      request('HEAD', profilesLike!.path, [`X-Padding: ${'a'.repeat(20_000)}`]),
    ]);
    expect(exchange.answer?.status).toBe(431);
    expect(exchange.answer?.text).toBe('');
  });

  it('outside every API: 431 with {error, code}', async () => {
    const exchange = await rawExchange(server.url, [request('GET', '/elsewhere', [`Cookie: ${'c'.repeat(20_000)}`])]);
    expect(exchange.answer?.status).toBe(431);
    expect(JSON.parse(exchange.answer!.text)).toEqual({
      error: 'Request headers are too large',
      code: 'invalid_request',
    });
  });
});

describe('a malformed request line or header block', () => {
  const path = profilesLike!.path;
  const prefix = profilesLike!.service.prefix;
  it.each([
    ['an unknown method token', 'BREW', path, request('BREW', path)],
    ['a lower-case method', 'get', path, request('get', path)],
    ['an unknown HTTP version', 'GET', path, `GET ${path} HTTP/9.9\r\nHost: x\r\n\r\n`],
    ['a NUL byte in the path', 'GET', `${prefix}/a\u0000b`, request('GET', `${prefix}/a\u0000b`)],
    ['a space in the path', 'GET', `${prefix}/a b`, request('GET', `${prefix}/a b`)],
    [
      'a raw non-ASCII byte in the path',
      'GET',
      `${prefix}/\u00e9`,
      Buffer.from(request('GET', `${prefix}/\u00e9`), 'latin1'),
    ],
    ['a header line without a colon', 'GET', path, request('GET', path, ['X-Broken header'])],
    ['a header name with a space', 'GET', path, request('GET', path, ['X Bad: 1'])],
    ['a bare CR in a header value', 'GET', path, request('GET', path, ['X-A: 1\rX-B: 2'])],
    [
      'both Content-Length and Transfer-Encoding',
      'POST',
      path,
      request('POST', path, ['Content-Length: 3', 'Transfer-Encoding: chunked'], 'abc'),
    ],
    [
      'two different Content-Lengths',
      'POST',
      path,
      request('POST', path, ['Content-Length: 3', 'Content-Length: 4'], 'abcd'),
    ],
    ['a negative Content-Length', 'POST', path, request('POST', path, ['Content-Length: -1'])],
  ])('%s: 400 in the service’s error format', async (_, method, target, raw) => {
    const exchange = await rawExchange(server.url, [raw]);
    expectOneDeclaredAnswer(exchange, method, target, 400);
    expect(exchange.ended).toBe('closed');
  });

  it('a request line that is no request line at all: 400 with {error, code}', async () => {
    const exchange = await rawExchange(server.url, ['GARBAGE\r\n\r\n']);
    expect(exchange.answer?.status).toBe(400);
    expect(JSON.parse(exchange.answer!.text)).toEqual({ error: 'Malformed request', code: 'invalid_request' });
  });
});

// Each of these waits out a timeout: they run side by side. A server that never cuts a slow client off
// keeps the connection until the test's own wait (bound + 2 s) ends; one that does cuts it within its
// timeout and one check interval, plus what a loaded machine adds to timers (seen: 0.8 s at load 20).
const TIMER_SLACK_MS = 2000;
describe.concurrent('slow clients', () => {
  const bound = HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + TIMER_SLACK_MS;

  it('headers that never finish: 408 (or a closed connection) within the headers timeout', async () => {
    const exchange = await rawExchange(server.url, [`GET ${profilesLike!.path} HTTP/1.1\r\nHost: x\r\n`], {
      waitMs: bound + 2000,
    });
    expect(exchange.ended).toBe('closed');
    expect(exchange.elapsedMs).toBeLessThan(bound);
    if (exchange.answer) {
      expect(exchange.answer.status).toBe(408);
      expect(JSON.parse(exchange.answer.text)).toEqual({ error: 'Request timed out', code: 'request_timeout' });
    }
  });

  it('headers trickled a line at a time: cut off at the headers timeout all the same', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: 1\r\n`);
    const exchange = await rawExchange(server.url, [`GET ${profilesLike!.path} HTTP/1.1\r\n`, ...lines], {
      pauseMs: 150,
      waitMs: bound + 2000,
    });
    expect(exchange.ended).toBe('closed');
    expect(exchange.elapsedMs).toBeLessThan(bound);
  });

  it('a connection that sends nothing is closed within the headers timeout', async () => {
    const exchange = await rawExchange(server.url, [], { waitMs: bound + 2000 });
    expect(exchange.ended).toBe('closed');
    expect(exchange.elapsedMs).toBeLessThan(bound);
  });

  const bodyBound = REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + TIMER_SLACK_MS;
  const withBody = everyOperation.filter(({ operation }) => operation.body !== 'none');
  const unfinished = startedTogether(withBody, async (target) =>
    rawExchange(server.url, [await unfinishedJsonBody(target)], { waitMs: bodyBound + 2000 }),
  );
  it.each(withBody)(
    '$label: a JSON body that never finishes is 408 within the request timeout, as the contract declares',
    async (target) => {
      const { operation, path } = target;
      const exchange = await unfinished(target);
      expect(exchange.ended).toBe('closed');
      expect(exchange.elapsedMs).toBeLessThan(bodyBound);
      expectOneDeclaredAnswer(exchange, operation.method, path, 408);
    },
  );

  const bodiless = everyOperation.filter(({ operation }) => operation.body === 'none' && operation.method === 'POST');
  it.skipIf(!bodiless.length)(
    'a body that never finishes on a bodiless operation: answered at once, then closed with no second answer',
    async () => {
      const { operation, path } = bodiless[0]!;
      const exchange = await rawExchange(
        server.url,
        [request(operation.method, path, ['Content-Length: 100'], 'abc')],
        {
          waitMs: bodyBound + 2000,
        },
      );
      expect(exchange.ended).toBe('closed');
      expect(exchange.elapsedMs).toBeLessThan(bodyBound);
      expectOneDeclaredAnswer(exchange, operation.method, path, exchange.answer?.status ?? 0);
    },
  );
});

describe.concurrent('oversized bodies', () => {
  const bodiless = everyOperation.filter(({ operation }) => operation.body === 'none' && operation.method === 'POST');
  /**
   * A server whose request timeout is far beyond the answer's: an answer
   * that waited for the body (or for the timeout's 408) shows as the wrong
   * answer or as too slow, and a loaded machine's slower upload does not.
   */
  const PATIENT_REQUEST_TIMEOUT_MS = 20_000;
  const patient = startServer({
    REQUEST_TIMEOUT_MS: String(PATIENT_REQUEST_TIMEOUT_MS),
  });
  afterAll(async () => (await patient).close());
  it.each(bodiless)(
    '$label: a 5 MB body is not read into memory; the answer is the one without it',
    async ({ operation, path }) => {
      const { url } = await patient;
      const big = Buffer.alloc(5_000_000, 'x');
      const started = performance.now();
      const exchange = await rawExchange(
        url,
        [
          request(operation.method, path, [
            'Content-Type: application/json',
            `Content-Length: ${big.length}`,
            'Connection: close',
          ]),
          big,
        ],
        { waitMs: PATIENT_REQUEST_TIMEOUT_MS },
      );
      const plain = await sendRequest(url, { method: operation.method, path });
      expectOneDeclaredAnswer(exchange, operation.method, path, plain.status);
      expect(exchange.answer!.text).toBe(plain.text);
      expect(performance.now() - started).toBeLessThan(PATIENT_REQUEST_TIMEOUT_MS);
    },
  );

  const declaredHuge = startedTogether(bodiless, ({ operation, path }) =>
    rawExchange(server.url, [request(operation.method, path, ['Content-Length: 10000000000'], 'x'.repeat(1000))], {
      waitMs: REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + 3000,
    }),
  );
  it.each(bodiless)(
    '$label: a body declared as 10 GB is answered at once, and the connection closed in bounded time',
    async (target) => {
      const exchange = await declaredHuge(target);
      expect(exchange.answer?.status).toBeLessThan(500);
      expect(exchange.ended).toBe('closed');
    },
  );

  const withBody = everyOperation.filter(({ operation }) => operation.body !== 'none');
  // On the patient server: a 100 kB upload beside the 5 MB ones must not meet the short request timeout's 408 on a loaded machine.
  it.each(withBody)('$label: a JSON body over 64 kB is refused with 413', async ({ service, operation, path }) => {
    const target = await patient;
    const credential = operation.security === 'none' ? {} : await issueCredential[service.name]?.(target);
    const answer = await sendRequest(target.url, {
      method: operation.method,
      path,
      headers: { ...credential, 'Content-Type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(100_000) }),
    });
    expect(answer.status).toBe(413);
    checker.check(operation.method, requestTarget(path), answer.status, answer.headers, answer.text);
  });
});

describe('junk on the connection', () => {
  it('after a complete request: that request’s answer first, then 400, then the connection is closed', async () => {
    const { operation, path } = profilesLike!;
    const exchange = await rawExchange(server.url, [`${request(operation.method, path)}JUNK / HTTP/1.1\r\n\r\n`]);
    const answers = answersIn(exchange.raw);
    expect(answers[1]).toBe('HTTP/1.1 400 B');
    expect(answers).toHaveLength(2);
    expect(exchange.ended).toBe('closed');
  });

  it('after a request that said Connection: close: only that request’s answer', async () => {
    const { operation, path } = profilesLike!;
    const exchange = await rawExchange(server.url, [
      `${request(operation.method, path, ['Connection: close'])}{"stray":"bytes"}`,
    ]);
    expect(answersIn(exchange.raw)).toHaveLength(1);
    expect(exchange.answer?.status).toBeLessThan(500);
    expect(exchange.ended).toBe('closed');
  });

  it('a broken chunked body after the answer: no second answer', async () => {
    const { operation, path } = profilesLike!;
    const exchange = await rawExchange(
      server.url,
      [request(operation.method, path, ['Transfer-Encoding: chunked'], 'zz\r\nnope\r\n')],
      {
        waitMs: 3000,
      },
    );
    expect(answersIn(exchange.raw)).toHaveLength(1);
    expect(exchange.ended).toBe('closed');
  });

  it('the server still answers afterwards', async () => {
    expect((await sendRequest(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });
});

/**
 * Node checks its timeouts in the event loop's timer phase, before the
 * loop reads its sockets: a loop held past the headers timeout (a long
 * synchronous step, a starved machine) finds bytes that arrived in time
 * still unread when the check expires their connection. Each test holds
 * the loop, with the request already sent, until a check is due.
 */
describe('a request that arrived in time but was read after the loop was held', () => {
  /** Past the headers timeout and one check interval: the next turn of the loop runs an expiring check first. */
  const HELD_MS = HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 200;
  const hold = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HELD_MS);
  const accepted = () => new Promise((resolve) => server.server.once('connection', resolve));

  it('a whole request is the app’s to answer, not a 408; the connection then closes', async () => {
    const { operation, path } = profilesLike!;
    const ready = accepted();
    const exchange = await rawExchange(server.url, [request(operation.method, path)], {
      ready,
      written: hold,
      waitMs: 10_000,
    });
    expect(exchange.answer?.status, exchange.raw).not.toBe(408);
    expectOneDeclaredAnswer(exchange, operation.method, path, exchange.answer!.status);
    expect(exchange.ended).toBe('closed');
  });

  const publishingBody = everyOperation.find(
    ({ service, operation }) => service.name === 'publishing' && operation.body !== 'none',
  );
  it.skipIf(!publishingBody)('a body that never finishes: 408 in the addressed service’s format', async () => {
    const { operation, path } = publishingBody!;
    const unfinished = await unfinishedJsonBody(publishingBody!);
    const ready = accepted();
    const exchange = await rawExchange(server.url, [unfinished], { ready, written: hold, waitMs: 10_000 });
    expect(exchange.ended).toBe('closed');
    expectOneDeclaredAnswer(exchange, operation.method, path, 408);
    expect(Object.keys(JSON.parse(exchange.answer!.text))).toEqual(['error', 'message']);
  });
});
