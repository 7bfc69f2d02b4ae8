import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contractChecker, requestTarget } from '../support/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** The project files `file` imports (relative specifiers), resolved to `.ts`, and what they import in turn. */
function importClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
    if (!specifier!.startsWith('.')) continue;
    const target = relative(root, resolve(root, dirname(file), specifier!)).replace(/\.js$/, '.ts');
    // A file outside the test tree is not read further: being imported is already the finding.
    if (target.startsWith('test/')) importClosure(target, seen);
    else seen.add(target);
  }
  return seen;
}

describe('the independent oracle (test/support/contract.ts)', () => {
  it.each(['test/support/contract.ts', 'test/support/realProfileSchema.ts'])(
    'imports nothing from src/, directly or through what it imports: %s',
    (oracle) => {
      const closure = [...importClosure(oracle)];
      expect(closure).toContain(oracle);
      expect(closure.filter((file) => !file.startsWith('test/'))).toEqual([]);
    },
  );

  it('is scanned: an import from src/ through a test helper would be found', () => {
    // test/support/server.ts imports the app: the same scan over it finds src/ files.
    expect([...importClosure('test/support/server.ts')]).toContain('src/app.ts');
  });

  const answer = (status: number, headers: Record<string, string>, body: unknown) => ({
    status,
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
    text: JSON.stringify(body),
  });
  /** Checks one answer; resolves to how many answers the checker counted (0 outside the APIs). */
  const check = async (method: string, path: string, a: ReturnType<typeof answer>) => {
    const checker = await contractChecker();
    const before = checker.checked;
    checker.check(method, requestTarget(path), a.status, a.headers, a.text);
    return { checked: checker.checked - before };
  };
  const rateLimits = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '1700000000' };

  it('reads the contracts itself: a body against its schema, through local $refs', async () => {
    const notFound = { error: 'Profile not found', code: 'not_found' };
    expect((await check('GET', '/v3/profiles/nobody', answer(404, rateLimits, notFound))).checked).toBe(1);
    await expect(check('GET', '/v3/profiles/nobody', answer(404, rateLimits, { error: 1 }))).rejects.toThrow(
      /body does not match the contract/,
    );
    await expect(check('GET', '/v3/profiles/nobody', answer(418, {}, notFound))).rejects.toThrow(
      /status 418 is not declared/,
    );
  });

  it('checks the headers an answer declares (a $ref to components/headers), required and by schema', async () => {
    const notFound = { error: 'Profile not found', code: 'not_found' };
    await expect(check('GET', '/v3/profiles/nobody', answer(404, {}, notFound))).rejects.toThrow(
      /required header X-RateLimit-Limit/,
    );
    await expect(
      check('GET', '/v3/profiles/nobody', answer(404, { ...rateLimits, 'x-ratelimit-limit': 'many' }, notFound)),
    ).rejects.toThrow(/header X-RateLimit-Limit=many does not match/);
  });

  it("refuses a rate-limit header the answer carries but does not declare (Node's 431 is answered before any limit counts)", async () => {
    const tooLarge = { error: 'Request headers are too large', code: 'invalid_request' };
    expect((await check('GET', '/v3/profiles/nobody', answer(431, {}, tooLarge))).checked).toBe(1);
    await expect(check('GET', '/v3/profiles/nobody', answer(431, rateLimits, tooLarge))).rejects.toThrow(
      /header X-RateLimit-Limit is sent but not declared/,
    );
    // Retry-After belongs to the 429 (and the 503): on a 404 it is a header the contract does not give that answer.
    const notFound = { error: 'Profile not found', code: 'not_found' };
    await expect(
      check('GET', '/v3/profiles/nobody', answer(404, { ...rateLimits, 'retry-after': '60' }, notFound)),
    ).rejects.toThrow(/header Retry-After is sent but not declared/);
  });

  it("matches paths itself: an operation's own server (/avatar), integer parameters, unrouted paths", async () => {
    // The avatar operation is served at the site's root; its 404 (d=404) carries its own rate-limit headers.
    const avatar404 = answer(
      404,
      { 'cache-control': 'public, max-age=300', ...rateLimits },
      { error: 'Avatar not found', code: 'not_found' },
    );
    expect((await check('GET', '/avatar/abc', avatar404)).checked).toBe(1);
    // A non-numeric post ID matches no operation: the 404 is the service's generic one, and its headers are not checked.
    expect(
      (
        await check('GET', '/rest/v1.1/sites/1/posts/abc', {
          status: 404,
          headers: new Headers({ 'content-type': 'text/plain' }),
          text: '',
        })
      ).checked,
    ).toBe(1);
    // Outside every API: not checked at all.
    expect((await check('GET', '/elsewhere', answer(200, {}, {}))).checked).toBe(0);
  });

  it("knows every contract in openapi/ by what it declares: its server URL's path, and its x-endpoint-layer", async () => {
    // developer.yaml's server URL ends in /developer/v1: an unrouted path there gets the service's generic error.
    const unknownPath = answer(404, {}, { error: 'Not found', code: 'not_found' });
    expect((await check('GET', '/developer/v1/nowhere', unknownPath)).checked).toBe(1);
    await expect(check('GET', '/developer/v1/nowhere', answer(404, {}, { error: 1 }))).rejects.toThrow(
      /body does not match/,
    );
    // publishing.yaml's x-endpoint-layer: OPTIONS on any path is answered 200 with an empty text/plain body ...
    const options = (status: number, text: string) => ({
      status,
      headers: new Headers({ 'content-type': 'text/plain' }),
      text,
    });
    expect((await check('OPTIONS', '/rest/v1.1/anything/at/all', options(200, ''))).checked).toBe(1);
    await expect(check('OPTIONS', '/rest/v1.1/anything/at/all', options(200, 'hello'))).rejects.toThrow(
      /OPTIONS must be answered 200/,
    );
    // ... and a trailing slash is accepted: the path with one is the operation's, whose 401 must carry its
    // declared WWW-Authenticate (an unrouted path's answer would not be held to an operation's headers).
    const invalidToken = { error: 'invalid_token', message: 'Invalid token.' };
    await expect(check('GET', '/rest/v1.1/sites/1/posts/1/', answer(401, {}, invalidToken))).rejects.toThrow(
      /required header WWW-Authenticate/,
    );
    expect(
      (
        await check(
          'GET',
          '/rest/v1.1/sites/1/posts/1/',
          answer(401, { 'www-authenticate': 'Bearer error="invalid_token"' }, invalidToken),
        )
      ).checked,
    ).toBe(1);
    // The header's value is checked too: RFC 6750's error parameter is one the contract names.
    await expect(
      check(
        'GET',
        '/rest/v1.1/sites/1/posts/1/',
        answer(401, { 'www-authenticate': 'Bearer error="nonsense"' }, invalidToken),
      ),
    ).rejects.toThrow(/WWW-Authenticate/);
  });
});
