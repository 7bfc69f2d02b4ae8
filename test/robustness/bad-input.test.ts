// @store-independent: it runs each case on SQLite, and on PostgreSQL too when the case reached a handler (test/support/store-reach.ts)
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { contractChecker } from '../support/contract.js';
import { credentialsOf } from '../support/credentials.js';
import { sendRequest } from '../support/http.js';
import { startOnBothStores, type On } from '../support/store-reach.js';
import { CALLBACK_INJECTIONS, fuzzTargets, type FuzzTarget } from './requests.js';
import { expectContractAnswer } from './settings.js';

/**
 * The bad-input catalogue of docs/testing.md, row by row and for every operation of
 * every contract the app serves: each kind of bad value in each place,
 * with a valid credential so the value reaches the handlers and the store.
 * Every answer is checked against the contract (never a 5xx, nothing
 * internal); the rows add what the catalogue promises on top.
 *
 * A case runs on SQLite, and on PostgreSQL too when one of its requests
 * reached the store past the contract's validation (`onReachedStores`): a
 * value that routing, security or validation refuses never reaches a handler
 * or the store, and is answered by the same code on both.
 *
 * One server per store, and many requests in flight at once: the tests of a
 * `describe.concurrent` run side by side and send their requests together
 * (concurrent bad input must be answered as well as one at a time); the
 * tests that compare two answers, or read the log, run alone.
 */
const logLines: Record<On['store'], string[]> = { sqlite: [], postgres: [] };
const stores = await startOnBothStores(
  {
    RATE_LIMIT_ANONYMOUS: '1000000',
    RATE_LIMIT_KEYED: '1000000',
    RATE_LIMIT_AVATARS: '1000000',
    RATE_LIMIT_PUBLISHING_READS: '1000000',
    DEVELOPER_PASSWORD_COST: '14',
  },
  { logger: (store) => pino({ level: 'info' }, { write: (line: string) => void logLines[store].push(line) }) },
);
const checker = await contractChecker();
const targets = fuzzTargets(stores.sqlite.built.services);
/** Each store's server's credential for each service. */
const credentials = await credentialsOf({ sqlite: stores.sqlite, postgres: stores.postgres });

/** The operation's path with its parameters from the contract's examples (`1` when it gives none), one of them replaced. */
function pathOf(target: FuzzTarget, replace: Record<string, string> = {}) {
  const values = Object.fromEntries(
    target.parameters
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, encodeURIComponent(String(p.example ?? Object.values(p.examples ?? {})[0]?.value ?? '1'))]),
  );
  return `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => replace[name] ?? values[name]!)}`;
}

/** Sends one request as a valid caller of the target's service and checks the answer against the contract. */
async function send(
  on: On,
  target: FuzzTarget,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  const wire = {
    method: init.method ?? target.operation.method,
    path,
    headers: { ...credentials[on.store].get(target.service.name), ...init.headers, ...on.headers() },
  };
  const answer = await sendRequest(on.server.url, wire);
  expectContractAnswer(checker, wire, answer);
  return answer;
}

it('runs a case on PostgreSQL too exactly when it reached the store past validation', async () => {
  const target = targets.find((t) => t.operation.method === 'GET' && t.parameters.some((p) => p.in === 'path'))!;
  const name = target.parameters.find((p) => p.in === 'path')!.name;
  const answers: Partial<Record<On['store'], number>> = {};
  const valid = await stores.onReachedStores(async (on) => {
    answers[on.store] = (await send(on, target, pathOf(target))).status;
  });
  expect(valid).toEqual(['sqlite', 'postgres']);
  expect(answers.postgres).toBe(answers.sqlite);
  // Malformed percent-encoding: refused before any validator passes, answered by the same code on either store.
  const refused = await stores.onReachedStores(async (on) => {
    expect((await send(on, target, pathOf(target, { [name]: '%E0%A4%A' }))).status).toBe(400);
  });
  expect(refused).toEqual(['sqlite']);
});

/** Path values of every kind, as sent on the wire. */
const PATH_VALUES = {
  empty: '',
  'very long': 'x'.repeat(5000),
  unicode: encodeURIComponent('Zoë-🙂-名前'),
  'encoded slash': 'a%2Fb',
  'dot-dot': '..',
  'encoded dot-dot': '%2E%2E',
  'malformed percent-encoding': '%E0%A4%A',
  'a lone %': '%',
  'encoded NUL': '%00',
  'NUL inside': 'a%00b',
  'encoded line break': '%0D%0A',
  'non-numeric': 'abc',
  'negative number': '-1',
  'beyond 2^53': '9007199254740993',
  'SQL-like': encodeURIComponent("1' OR '1'='1"),
};

const pathTargets = targets.flatMap((target) =>
  target.parameters
    .filter((p) => p.in === 'path')
    .flatMap((p) =>
      Object.entries(PATH_VALUES).map(([kind, value]) => ({
        label: `${target.label} ${p.name}: ${kind}`,
        target,
        name: p.name,
        value,
      })),
    ),
);

describe.concurrent('path values of every kind, in every path parameter', () => {
  it.each(pathTargets)('$label', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      await send(on, target, pathOf(target, { [name]: value }));
    });
  });

  const isInteger = (target: FuzzTarget, name: string) =>
    target.operation.pathParams.some((p) => p.name === name && p.integer);
  const numeric = pathTargets.filter(({ target, name, value }) => isInteger(target, name) && value === 'abc');
  it.each(numeric)('$label: a non-numeric ID matches no route (404)', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      expect((await send(on, target, pathOf(target, { [name]: value }))).status).toBe(404);
    });
  });

  const malformed = pathTargets.filter(({ target, name, value }) => !isInteger(target, name) && value === '%E0%A4%A');
  it.each(malformed)('$label: 400 naming the parameter', async ({ target, name, value }) => {
    await stores.onReachedStores(async (on) => {
      const answer = await send(on, target, pathOf(target, { [name]: value }));
      // Security comes first: an operation that needs a credential it has no way to get here may refuse before.
      if (answer.status === 400) expect(answer.text).toContain(name);
      else expect([401, 403]).toContain(answer.status);
    });
  });
});

/** Query values of wrong types and shapes, for every declared parameter (and those declared elsewhere in the service). */
const QUERY_VALUES = [
  '',
  'true',
  '1',
  '-1',
  'abc',
  '[]',
  '{}',
  '%E0%A4%A',
  '%00',
  'x'.repeat(3000),
  encodeURIComponent('名前'),
];
const queryTargets = targets.flatMap((target) =>
  [...target.parameters, ...target.siblingQuery]
    .filter((p) => p.in === 'query')
    .map((p) => ({ label: `${target.label} ?${p.name}`, target, name: p.name })),
);

describe.concurrent('query values of wrong types, repeated keys, unknown parameters', () => {
  it.each(queryTargets)('$label: every wrong value, and the key repeated', async ({ target, name }) => {
    await stores.onReachedStores(async (on) => {
      await Promise.all([
        ...QUERY_VALUES.map((value) => send(on, target, `${pathOf(target)}?${name}=${value}`)),
        send(on, target, `${pathOf(target)}?${name}=1&${name}=abc&${name}=`),
      ]);
    });
  });
});

// One at a time: the two answers compared are read back to back, with no other test's write between them.
describe('unknown query parameters', () => {
  it.each(targets)('$label: unknown query parameters are accepted and ignored', async (target) => {
    if (target.operation.method !== 'GET') return;
    await stores.onReachedStores(async (on) => {
      const plain = await send(on, target, pathOf(target));
      const extra = await send(on, target, `${pathOf(target)}?source=hovercard&unknown=1&__proto__=x&a[b]=c`);
      expect(extra.status).toBe(plain.status);
      expect(extra.text).toBe(plain.text);
    });
  });
});

describe.concurrent('JSONP callback injection attempts', () => {
  const jsonp = queryTargets.filter(({ name }) => name === 'callback');
  it.each(jsonp)(
    '$label: only [A-Za-z0-9_.] survive, behind /**/, served as JavaScript with nosniff',
    async ({ target }) => {
      await stores.onReachedStores(async (on) => {
        const answers = await Promise.all(
          CALLBACK_INJECTIONS.map((callback) =>
            send(on, target, `${pathOf(target)}?callback=${encodeURIComponent(callback)}`),
          ),
        );
        for (const [index, callback] of CALLBACK_INJECTIONS.entries()) {
          const answer = answers[index]!;
          const name = callback.replace(/[^A-Za-z0-9_.]/g, '');
          if (!name) {
            expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
            continue;
          }
          expect(answer.headers.get('content-type')).toMatch(/^application\/javascript/);
          expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
          expect(answer.text.startsWith(`/**/${name}(`)).toBe(true);
          expect(answer.text.endsWith(');')).toBe(true);
        }
      });
    },
  );
});

describe('a token in a query string', () => {
  const bearer = targets.filter(
    (target) => credentials.sqlite.get(target.service.name)?.authorization && target.operation.security !== 'none',
  );
  it.each(bearer)('$label: is never a credential, and never reaches the log', async (target) => {
    await stores.onReachedStores(async (on) => {
      const token = credentials[on.store].get(target.service.name)!.authorization!.replace(/^Bearer /, '');
      const path = pathOf(target);
      const anonymous = await sendRequest(on.server.url, { method: target.operation.method, path });
      const lines = logLines[on.store];
      lines.length = 0;
      for (const name of ['access_token', 'token', 'api_key', 'key']) {
        const wire = {
          method: target.operation.method,
          path: `${path}?${name}=${encodeURIComponent(token)}`,
          headers: on.headers(),
        };
        const answer = await sendRequest(on.server.url, wire);
        expectContractAnswer(checker, wire, answer);
        // Answered exactly as a caller without a credential (the profiles answer, anonymous; the publishing one, 401).
        expect(answer.status).toBe(anonymous.status);
        expect(answer.text).toBe(anonymous.text);
      }
      expect(lines.some((line) => line.includes('"msg":"request"'))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
    });
  });
});

describe.concurrent('wrong methods', () => {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];
  it.each(targets)(
    '$label: every other method is 405 with Allow (publishing: as its endpoint layer answers), a made-up one 400',
    async (target) => {
      await stores.onReachedStores((on) => wrongMethods(on, target));
    },
  );
  async function wrongMethods(on: On, target: FuzzTarget) {
    const path = pathOf(target);
    const allowed = targets.filter((t) => t.service === target.service && t.operation.path === target.operation.path);
    const allowedMethods = allowed.flatMap((t) =>
      t.operation.method === 'GET' ? ['GET', 'HEAD'] : [t.operation.method],
    );
    const publishing = target.service.name === 'publishing';
    const others = methods.filter((m) => !allowedMethods.includes(m));
    const answers = await Promise.all(others.map((method) => send(on, target, path, { method })));
    for (const [index, method] of others.entries()) {
      const answer = answers[index]!;
      if (publishing && (method === 'GET' || method === 'POST' || method === 'OPTIONS')) {
        // The platform's endpoint layer: the other of GET and POST is an unknown path; OPTIONS is always 200.
        expect(answer.status, method).toBe(method === 'OPTIONS' ? 200 : 404);
        expect(answer.text, method).toBe('');
        continue;
      }
      expect(answer.status, method).toBe(405);
      const allow = publishing
        ? allowedMethods.filter((m) => m !== 'HEAD').join(',')
        : [...allowedMethods].sort().join(', ');
      expect(
        publishing ? answer.headers.get('allow') : answer.headers.get('allow')?.split(', ').sort().join(', '),
      ).toBe(allow);
    }
    expect((await send(on, target, path, { method: 'BREW' })).status).toBe(400);
  }
});
