// @store-independent
import { fileURLToPath } from 'node:url';
import { OpenAPIRouter } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { PREFIX as DEVELOPER_PREFIX } from '../../../generated/developer/contract.gen.js';
import { PREFIX as PROFILES_PREFIX } from '../../../generated/profiles/contract.gen.js';
import { PREFIX as PUBLISHING_PREFIX } from '../../../generated/publishing/contract.gen.js';
import { loadContract } from '../../../src/platform/contract/compile.js';
import type { ContractOperation } from '../../../src/platform/contract/types.js';
import { ContractRouter, type RouteMatch } from '../../../src/platform/pipeline/router.js';

/** An operation as the router sees it (the rest of a compiled operation plays no part in routing). */
function op(
  method: string,
  path: string,
  options: { integer?: string[]; serverPath?: string } = {},
): ContractOperation {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return {
    operationId: `${method} ${path}`,
    method,
    path,
    ...(options.serverPath !== undefined ? { serverPath: options.serverPath } : {}),
    pathParams: names.map((name) => ({ name, integer: options.integer?.includes(name) ?? false })),
  } as unknown as ContractOperation;
}

const idOf = (match: ReturnType<ContractRouter['match']>) =>
  match.kind === 'operation' ? match.operation.operationId : match.kind;

describe('ContractRouter', () => {
  const router = new ContractRouter('/v1', [
    op('GET', '/posts/{id}', { integer: ['id'] }),
    op('GET', '/posts/new'),
    op('POST', '/posts/{id}/restore', { integer: ['id'] }),
    op('GET', '/posts/{id}/slug:{slug}', { integer: ['id'] }),
    op('GET', '/things/{name}'),
    op('DELETE', '/things/special'),
    op('GET', '/avatar/{hash}', { serverPath: '' }),
    op('GET', '/archive/{year}-{month}', { integer: ['year', 'month'] }),
  ]);

  it('routes literal and templated paths, with their raw parameters', () => {
    expect(router.match('GET', '/v1/posts/12')).toMatchObject({ kind: 'operation', rawParams: { id: '12' } });
    expect(idOf(router.match('GET', '/v1/posts/new'))).toBe('GET /posts/new');
    expect(router.match('GET', '/v1/posts/7/slug:a%20b')).toMatchObject({ rawParams: { id: '7', slug: 'a%20b' } });
    expect(router.match('GET', '/avatar/abc')).toMatchObject({ kind: 'operation', rawParams: { hash: 'abc' } });
    expect(router.match('GET', '/v1/archive/2024-05')).toMatchObject({
      kind: 'operation',
      rawParams: { year: '2024', month: '05' },
    });
  });

  it('matches segments as sent and gives parameters back still percent-encoded, malformed or not', () => {
    expect(router.match('GET', '/v1/things/a%2525b')).toMatchObject({ rawParams: { name: 'a%2525b' } });
    expect(router.match('GET', '/v1/things/%E0%A4%A')).toMatchObject({
      kind: 'operation',
      rawParams: { name: '%E0%A4%A' },
    });
    expect(router.match('GET', '/v1/posts/7/slug:%')).toMatchObject({ rawParams: { id: '7', slug: '%' } });
    expect(idOf(router.match('GET', '/v1/p%6Fsts/12'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/archive/2024-%305'))).toBe('not-found');
  });

  it('routes a value of any length (the contract’s maxLength answers a long one)', () => {
    const long = 'x'.repeat(3000);
    expect(router.match('GET', `/v1/things/${long}`)).toMatchObject({ kind: 'operation', rawParams: { name: long } });
  });

  it('answers HEAD with the GET operation', () => {
    expect(idOf(router.match('HEAD', '/v1/posts/12'))).toBe('GET /posts/{id}');
  });

  it('matches integer parameters on digits only, and no empty parameter', () => {
    expect(idOf(router.match('GET', '/v1/posts/abc'))).toBe('not-found');
    expect(idOf(router.match('POST', '/v1/posts/abc/restore'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/things/'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/posts/12/'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/posts//'))).toBe('not-found');
    expect(idOf(router.match('PUT', '/v1/things/'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/archive/2024-x'))).toBe('not-found');
  });

  it('prefers a literal path, then falls back to a templated one that takes the method', () => {
    // `/things/special` takes DELETE only; GET goes to `/things/{name}`.
    expect(router.match('GET', '/v1/things/special')).toMatchObject({
      kind: 'operation',
      rawParams: { name: 'special' },
    });
    expect(idOf(router.match('DELETE', '/v1/things/special'))).toBe('DELETE /things/special');
  });

  it('answers a known path under another method with the methods of the best match', () => {
    expect(router.match('PUT', '/v1/things/special')).toEqual({ kind: 'method-not-allowed', allow: ['DELETE'] });
    expect(router.match('DELETE', '/v1/posts/3/restore')).toEqual({ kind: 'method-not-allowed', allow: ['POST'] });
  });

  it('routes nothing outside the prefix or the operation servers', () => {
    expect(idOf(router.match('GET', '/posts/12'))).toBe('not-found');
    expect(idOf(router.match('GET', '/v1/avatar/abc'))).toBe('not-found');
    expect(idOf(router.match('GET', ''))).toBe('not-found');
  });

  it('accepts one trailing slash only where asked to', () => {
    const lenient = new ContractRouter('/v1', [op('POST', '/posts/{id}/restore', { integer: ['id'] })], {
      ignoreTrailingSlash: true,
    });
    expect(idOf(lenient.match('POST', '/v1/posts/3/restore/'))).toBe('POST /posts/{id}/restore');
    expect(idOf(lenient.match('POST', '/v1/posts/3/restore//'))).toBe('not-found');
    expect(idOf(router.match('POST', '/v1/posts/3/restore/'))).toBe('not-found');
  });

  it('refuses at start-up a parameter name it cannot route', () => {
    expect(() => new ContractRouter('/v1', [op('GET', '/posts/{post-id}')])).toThrow('{post-id}');
  });

  it('costs about the same with 500 operations as with 2 (no scan over the routes)', () => {
    const few = new ContractRouter('/v1', [op('GET', '/profiles/{id}'), op('GET', '/openapi')]);
    const many = new ContractRouter('/v1', [
      ...Array.from({ length: 498 }, (_, i) => op('GET', `/resource${i}/{id}`)),
      op('GET', '/profiles/{id}'),
      op('GET', '/openapi'),
    ]);
    const time = (r: ContractRouter, path: string) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 20_000; i++) r.match('GET', path);
      return Number(process.hrtime.bigint() - start);
    };
    // The least of several rounds, each router in turn: the ratio holds on a busy machine. A
    // router that tries each route in turn costs about 100 times more with 500 routes.
    for (const path of ['/v1/profiles/alex', '/v1/no/such/path']) {
      let best = Infinity;
      for (let round = 0; round < 5; round++) best = Math.min(best, time(many, path) / time(few, path));
      expect(best, path).toBeLessThan(3);
    }
  });
});

/**
 * `ContractRouter` (find-my-way with the services' rules) beside the router
 * openapi-backend would use (`OpenAPIRouter`, not taken: docs/decisions/router.md),
 * given the same operations of the real contracts: every path below routes
 * to the same operation with the same (decoded) parameters, or to the same
 * 404 or 405, except where a row names a difference the services rely on.
 */
describe('ContractRouter beside openapi-backend’s router, on the contracts', async () => {
  const services = {
    profiles: { prefix: PROFILES_PREFIX, ignoreTrailingSlash: false },
    publishing: { prefix: PUBLISHING_PREFIX, ignoreTrailingSlash: true },
    developer: { prefix: DEVELOPER_PREFIX, ignoreTrailingSlash: false },
  };
  type Service = keyof typeof services;
  const routers = Object.fromEntries(
    await Promise.all(
      (Object.keys(services) as Service[]).map(async (name) => {
        const { prefix, ignoreTrailingSlash } = services[name];
        const { operations } = await loadContract(
          fileURLToPath(new URL(`../../../openapi/${name}.yaml`, import.meta.url)),
        );
        const paths: Record<string, Record<string, { operationId: string }>> = {};
        for (const operation of operations) {
          (paths[`${operation.serverPath ?? prefix}${operation.path}`] ??= {})[operation.method.toLowerCase()] = {
            operationId: operation.operationId,
          };
        }
        const library = new OpenAPIRouter({
          definition: { openapi: '3.1.0', info: { title: name, version: '1' }, paths } as never,
          ignoreTrailingSlashes: ignoreTrailingSlash,
        });
        return [name, { ours: new ContractRouter(prefix, operations, { ignoreTrailingSlash }), library }];
      }),
    ),
  ) as Record<Service, { ours: ContractRouter; library: OpenAPIRouter }>;

  /** What a router answered, as the pipeline acts on it: an operation with decoded parameters, 404 or 405. */
  const ourAnswer = (match: RouteMatch) => {
    if (match.kind !== 'operation') return match.kind === 'not-found' ? 404 : 405;
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(match.rawParams)) params[name] = decodeURIComponent(raw);
    return { operationId: match.operation.operationId, params };
  };
  const libraryAnswer = (library: OpenAPIRouter, method: string, path: string) => {
    const request = { method, path, headers: {} };
    try {
      const operation = library.matchOperation(request, true);
      return { operationId: operation.operationId, params: library.parseRequest(request, operation).params };
    } catch (error) {
      return /^405/.test((error as Error).message) ? 405 : 404;
    }
  };

  /** A difference from the library that the services rely on. */
  const DIFFERENCES = {
    head: 'GET answers HEAD too, as HTTP requires; the library answers 405',
    integer:
      'an integer parameter matches digits only, as sent (no route, the platform’s 404); the library routes it and leaves it to validation',
    slashes: 'one trailing slash at most where the service accepts one; the library strips any number',
  } as const;
  const rows: [Service, string, string, (keyof typeof DIFFERENCES)?][] = [
    ['profiles', 'GET', '/v3/profiles/alex'],
    ['profiles', 'GET', '/v3/profiles/alex/'],
    ['profiles', 'GET', '/v3/profiles/a%2Fb'],
    ['profiles', 'GET', '/v3/profiles/%E2%9C%93'],
    ['profiles', 'GET', '/v3/profiles/a.json'],
    ['profiles', 'GET', '/v3/profiles/openapi'],
    ['profiles', 'GET', '/v3/profiles/'],
    ['profiles', 'GET', '/v3/profiles/a/b'],
    ['profiles', 'GET', '/v3/openapi'],
    ['profiles', 'POST', '/v3/openapi'],
    ['profiles', 'GET', '/avatar/abc'],
    ['profiles', 'GET', '/v3/avatar/abc'],
    ['profiles', 'GET', '/v3'],
    ['profiles', 'GET', '/v3x/profiles/a'],
    ['profiles', 'GET', '/V3/profiles/a'],
    ['profiles', 'HEAD', '/v3/profiles/alex', 'head'],
    ['publishing', 'GET', '/rest/v1.1/sites/example.com/posts/12'],
    ['publishing', 'GET', '/rest/v1.1/sites/example.com/posts/12/'],
    ['publishing', 'GET', '/rest/v1.1/sites/a%2Fb/posts/12'],
    ['publishing', 'GET', '/rest/v1.1/sites/a%20b'],
    ['publishing', 'GET', '/rest/v1.1/sites/'],
    ['publishing', 'GET', '/rest/v1.1//sites/x'],
    ['publishing', 'PUT', '/rest/v1.1/sites/x'],
    ['publishing', 'GET', '/rest/v1.1/sites/x/posts/1/likes/mine'],
    ['publishing', 'GET', '/rest/v1.1/sites/x/posts/1/likes/other'],
    ['publishing', 'POST', '/rest/v1.1/sites/x/posts/1/restore'],
    ['publishing', 'POST', '/rest/v1.1/sites/x/posts/1/restore/'],
    ['publishing', 'GET', '/rest/v1.1/sites/x/posts/1/restore'],
    ['publishing', 'GET', '/rest/v1.1/openapi'],
    ['publishing', 'GET', '/rest/v1.1'],
    ['publishing', 'GET', '/rest/v1.10/sites/x'],
    ['publishing', 'HEAD', '/rest/v1.1/sites/x', 'head'],
    ['publishing', 'GET', '/rest/v1.1/sites/example.com/posts/abc', 'integer'],
    ['publishing', 'GET', '/rest/v1.1/sites/x/posts/-1', 'integer'],
    ['publishing', 'GET', '/rest/v1.1/sites/x/posts/1%32', 'integer'],
    ['publishing', 'GET', '/rest/v1.1/sites/example.com/posts/12//', 'slashes'],
    ['developer', 'GET', '/developer/v1/session'],
    ['developer', 'POST', '/developer/v1/session'],
    ['developer', 'PUT', '/developer/v1/session'],
    ['developer', 'GET', '/developer/v1/session/'],
    ['developer', 'POST', '/developer/v1/accounts/email'],
    ['developer', 'POST', '/developer/v1/accounts/email/confirm'],
    ['developer', 'POST', '/developer/v1/accounts/other'],
    ['developer', 'DELETE', '/developer/v1/applications/app_1'],
    ['developer', 'GET', '/developer/v1/applications/app_1'],
    ['developer', 'POST', '/developer/v1/applications/app_1/keys/k%2F1/revoke'],
    ['developer', 'POST', '/developer/v1/applications/rotate-key'],
    ['developer', 'DELETE', '/developer/v1/sessions/'],
  ];

  it.each(rows.filter((row) => !row[3]))('%s: %s %s routes as the library routes it', (service, method, path) => {
    const { ours, library } = routers[service];
    expect(ourAnswer(ours.match(method, path))).toEqual(libraryAnswer(library, method, path));
  });

  it.each(rows.filter((row) => row[3]))('%s: %s %s differs on purpose (%s)', (service, method, path, difference) => {
    const { ours, library } = routers[service];
    const answer = ourAnswer(ours.match(method, path));
    expect(answer).not.toEqual(libraryAnswer(library, method, path));
    if (difference === 'head') expect(answer).toEqual(ourAnswer(ours.match('GET', path)));
    else expect(answer, DIFFERENCES[difference!]).toBe(404);
  });

  it('has rows that route alike to literal, templated and own-server operations of each contract', () => {
    const routed = new Set(
      rows
        .filter((row) => !row[3])
        .map(([service, method, path]) => {
          const match = routers[service].ours.match(method, path);
          return match.kind === 'operation' ? match.operation.operationId : undefined;
        }),
    );
    for (const name of [
      'getProfileById',
      'getAvatar',
      'getPost',
      'getSite',
      'restorePost',
      'getMyPostLike',
      'logIn',
      'revokeApiKey',
      'deleteApplication',
    ]) {
      expect(routed, name).toContain(name);
    }
  });
});
