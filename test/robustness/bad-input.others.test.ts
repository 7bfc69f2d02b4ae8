// @store-independent: it runs each case on SQLite, and on PostgreSQL too when the case reached a handler (test/support/store-reach.ts)
import { describe, expect, it } from 'vitest';
import { sendRequest } from '../support/http.js';
import type { On } from '../support/store-reach.js';
import { CALLBACK_INJECTIONS, exampleBody, type FuzzTarget } from './targets.js';
import { expectContractAnswer } from './settings.js';
import { badInputHarness, LARGE_INTEGERS } from './bad-input.js';

/** The bad-input catalogue (`bad-input.ts`): unknown query parameters, JSONP callbacks, a token in a query string, wrong methods, numbers past the store in bodies. */
const { logLines, stores, checker, targets, credentials, queryTargets, pathOf, send } = await badInputHarness();

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
    '$label: only [A-Za-z0-9_.] survive, behind /**/, served as JavaScript with nosniff (a file as itself)',
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
          // A file (`getMediaFile`'s image) is served as itself: a callback wraps JSON answers only, and its text
          // never reaches the bytes.
          if (answer.status === 200 && /^image\//.test(answer.headers.get('content-type') ?? '')) {
            expect(answer.text).not.toContain(callback);
            continue;
          }
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

/**
 * Numbers past what the store holds in every field of every JSON body, as
 * JSON numbers and as text (a field the endpoint layer casts may take
 * either, and a 20-digit text is no JavaScript integer at all). Each is sent
 * in the operation's example body, so the rest of the request is valid and
 * the value reaches the handler and the store. The requests of the
 * concurrent tests run side by side: creates of posts race for IDs too.
 */
const LARGE_VALUES = [...LARGE_INTEGERS.map(Number), ...LARGE_INTEGERS, '99999999999999999999'];

/** The top-level fields a JSON body of the operation may have: its schema's properties, else its example's keys. */
function bodyFields(target: FuzzTarget): string[] {
  const pathItem = (target.service.contract.dereferenced.paths as Record<string, Record<string, unknown>>)[
    target.operation.path
  ]!;
  const operation = pathItem[target.operation.method.toLowerCase()] as {
    requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  };
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return Object.keys(schema?.properties ?? exampleBody(target));
}

const bodyTargets = targets
  .filter((target) => target.operation.body !== 'none')
  .flatMap((target) =>
    bodyFields(target).map((name) => ({ label: `${name}: ${target.operation.operationId}`, target, name })),
  );

it('covers the body fields of the operations that take one', () => {
  expect(bodyTargets.map(({ label }) => label)).toEqual(
    expect.arrayContaining(['author: createPost', 'featured_image: createPost']),
  );
});

describe.concurrent('numbers past the store, in every body field', () => {
  it.each(bodyTargets)('$label', async ({ target, name }) => {
    await stores.onReachedStores(async (on) => {
      await Promise.all(
        LARGE_VALUES.map((value) =>
          send(on, target, pathOf(target), {
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ ...exampleBody(target), [name]: value }),
          }),
        ),
      );
    });
  });
});
