// @store-independent
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/platform/contract/compile.js';
import { contractPipeline } from '../../../src/platform/pipeline/pipeline.js';
import type { ResponseValidation } from '../../../src/platform/config.js';
import { requestId } from '../../../src/platform/answers/requestId.js';
import { setHeader, setHeaders } from '../../../src/platform/answers/headers.js';
import type { AnyHandler, ServiceDefinition } from '../../../src/platform/pipeline/service.js';
import { ApiError } from '../../../src/platform/answers/errors.js';
import { EncodedJson } from '../../../src/platform/answers/encodedJson.js';
import { DEMO_PROFILES } from '../../../src/services/profiles/demo.js';
import { toProfileContent } from '../../../src/services/profiles/import/toProfileContent.js';
import { presentProfile } from '../../../src/services/profiles/http/presentProfile.js';
import { profilesErrorBody } from '../../../src/services/profiles/errors.js';
import { contractChecker, contractFetch } from '../../support/contract.js';

const contract = await loadContract(fileURLToPath(new URL('../../../openapi/profiles.yaml', import.meta.url)));
const call = contractFetch(await contractChecker());
let server: Server | undefined;
afterEach(() => server?.close());

/** Serves the profiles contract with the given handlers through the shared pipeline. */
async function serve(
  handlers: Record<string, AnyHandler>,
  responseValidation: ResponseValidation = 'strict',
  overrides: Partial<ServiceDefinition> = {},
  pipelineOptions: { maxAnswerBytes?: number } = {},
) {
  const logged: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const service: ServiceDefinition = {
    name: 'profiles',
    prefix: '/v3',
    contract,
    handlers,
    anonymous: { kind: 'anonymous' },
    security: { apiKey: async (token) => (token === 'good' ? { kind: 'key' } : null), oauth: async () => null },
    unauthenticated: () => new ApiError(401, 'unauthorized', 'no'),
    errorBody: profilesErrorBody,
    ...overrides,
  };
  const app = new Koa();
  app.silent = true;
  app.use(requestId);
  app.use(contractPipeline([service], { logger, responseValidation, ...pipelineOptions }));
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged };
}

describe('thrown errors', () => {
  it('become a 500 in the error format with nothing internal, logged once with the cause', async () => {
    const { url, logged } = await serve({
      getProfileById: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.5:5432 at /srv/app/store.ts:12');
      },
    });
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(text).not.toMatch(/ECONNREFUSED|store\.ts|stack/);
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged[0])).toContain('ECONNREFUSED');
  });

  it('keep the status, code and headers of an ApiError', async () => {
    const { url } = await serve({
      getProfileById: async () => {
        throw new ApiError(404, 'not_found', 'Profile not found', {
          'X-RateLimit-Limit': '100',
          'X-RateLimit-Remaining': '99',
          'X-RateLimit-Reset': '1700000000',
        });
      },
    });
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(await res.json()).toEqual({ error: 'Profile not found', code: 'not_found' });
  });
});

describe('operations without a handler', () => {
  it('answer 501 in the error format', async () => {
    const { url } = await serve({});
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: 'Not implemented', code: 'not_implemented' });
  });
});

describe('handler input', () => {
  it('is validated, decoded and carries the resolved caller', async () => {
    let seen: unknown;
    const { url } = await serve({
      getProfileById: async (input) => {
        seen = { path: input.path, principal: input.principal };
        throw new ApiError(404, 'not_found', 'Profile not found');
      },
    });
    await fetch(`${url}/v3/profiles/a%20b?source=hovercard`, { headers: { Authorization: 'Bearer good' } });
    expect(seen).toEqual({ path: { profileIdentifier: 'a b' }, principal: { kind: 'key' } });
    await fetch(`${url}/v3/profiles/x`, { headers: { Authorization: 'Bearer unknown' } });
    expect(seen).toEqual({ path: { profileIdentifier: 'x' }, principal: { kind: 'anonymous' } });
  });
});

describe('response validation', () => {
  const headers = {
    'X-RateLimit-Limit': '100',
    'X-RateLimit-Remaining': '99',
    'X-RateLimit-Reset': '1700000000',
    ETag: '"x"',
    'Cache-Control': 'no-store',
  };
  const badProfile: AnyHandler = async () => ({ status: 200, body: { hash: 'not-a-hash', secret: 1 }, headers });

  it('turns an answer the contract does not describe into a 500 in strict mode', async () => {
    const { url, logged } = await serve({ getProfileById: badProfile }, 'strict');
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(500);
    expect(logged).toHaveLength(1);
  });

  it('logs it and lets it through in log mode', async () => {
    const { url, logged } = await serve({ getProfileById: badProfile }, 'log');
    const res = await fetch(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(200);
    expect(logged).toHaveLength(1);
  });

  it('is skipped when off', async () => {
    const { url, logged } = await serve({ getProfileById: badProfile }, 'off');
    const res = await fetch(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(200);
    expect(logged).toHaveLength(0);
  });

  it('checks an encoded body as what it decodes to', async () => {
    const bad = EncodedJson.of({ hash: 'not-a-hash', secret: 1 }, () => '"tag"');
    const { url, logged } = await serve(
      { getProfileById: async () => ({ status: 200, body: bad, headers }) },
      'strict',
    );
    expect((await call(`${url}/v3/profiles/alex`)).status).toBe(500);
    expect(logged).toHaveLength(1);
    server?.close();

    const profile = {
      ...toProfileContent(DEMO_PROFILES[0]!, new Date()),
      emailHash: 'a'.repeat(64),
      avatarDigest: null,
    };
    const links = {
      profiles: 'https://example.com',
      avatars: 'https://example.com/avatar',
      icons: 'https://example.com/icons',
    };
    const good = EncodedJson.of(presentProfile(profile, 'anonymous', links), () => '"tag"');
    const served = await serve({ getProfileById: async () => ({ status: 200, body: good, headers }) }, 'strict');
    const res = await call(`${served.url}/v3/profiles/alex`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(good.decode());
    expect(served.logged).toHaveLength(0);
  });

  it('caps an encoded body as any other: over the cap, the 400 without the headers its presenter wrote', async () => {
    const encoded = EncodedJson.of({ display_name: 'x'.repeat(200) }, () => '"tag"');
    const answer = async () => ({ status: 200, body: encoded, headers: { ...headers, 'X-Extra': 'yes' } });
    const capped = await serve({ getProfileById: answer }, 'off', {}, { maxAnswerBytes: 100 });
    const over = await fetch(`${capped.url}/v3/profiles/alex`);
    expect(over.status).toBe(400);
    expect(over.headers.get('x-extra')).toBeNull();
    expect(await over.json()).toMatchObject({ code: 'invalid_request' });
    server?.close();

    const roomy = await serve({ getProfileById: answer }, 'off', {}, { maxAnswerBytes: encoded.bytes.length });
    const within = await fetch(`${roomy.url}/v3/profiles/alex`);
    expect(within.status).toBe(200);
    expect(within.headers.get('x-extra')).toBe('yes');
    expect(Buffer.from(await within.arrayBuffer()).equals(encoded.bytes)).toBe(true);
  });

  it('writes an encoded body as its bytes, never decoding it when off', async () => {
    const encoded = EncodedJson.of({ display_name: 'Ünïcode ✓', n: 1 }, () => '"tag"');
    encoded.decode = () => {
      throw new Error('decoded on the request path');
    };
    const { url, logged } = await serve(
      { getProfileById: async () => ({ status: 200, body: encoded, headers }) },
      'off',
    );
    const res = await fetch(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).equals(encoded.bytes)).toBe(true);
    expect(encoded.bytes.toString()).toBe('{"display_name":"Ünïcode ✓","n":1}');
    expect(logged).toHaveLength(0);
  });
});

describe('response header validation', () => {
  const rateLimited = { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': '1700000000' };
  const notFound =
    (headers: Record<string, string>): AnyHandler =>
    async () => {
      throw new ApiError(404, 'not_found', 'Profile not found', headers);
    };
  const { 'X-RateLimit-Reset': _reset, ...withoutReset } = rateLimited;

  it('turns an answer missing a required header into a 500 in strict mode, keeping only the headers set before it', async () => {
    const { url, logged } = await serve({ getProfileById: notFound(withoutReset) }, 'strict');
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(res.headers.get('x-request-id')).toMatch(/./);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(logged).toEqual([
      expect.objectContaining({ problem: 'header x-ratelimit-reset: is required but missing', status: 404 }),
    ]);
  });

  it('turns a declared header with a value outside its schema into a 500 in strict mode', async () => {
    const { url, logged } = await serve({
      getProfileById: notFound({ ...rateLimited, 'X-RateLimit-Remaining': 'lots' }),
    });
    const res = await call(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(500);
    expect(logged).toEqual([
      expect.objectContaining({ problem: 'header x-ratelimit-remaining: lots must be integer' }),
    ]);
  });

  it('logs it and lets it through in log mode', async () => {
    const { url, logged } = await serve({ getProfileById: notFound(withoutReset) }, 'log');
    const res = await fetch(`${url}/v3/profiles/alex`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(logged).toHaveLength(1);
  });

  it('accepts an answer with every declared header valid', async () => {
    const { url, logged } = await serve({ getProfileById: notFound(rateLimited) }, 'strict');
    expect((await call(`${url}/v3/profiles/alex`)).status).toBe(404);
    expect(logged).toHaveLength(0);
  });
});

describe('the test-side contract check', () => {
  it('rejects an answer the contract does not describe', async () => {
    const headers = {
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '99',
      'X-RateLimit-Reset': '1700000000',
      ETag: '"x"',
      'Cache-Control': 'no-store',
    };
    const { url } = await serve({ getProfileById: async () => ({ status: 200, body: { hash: 'x' }, headers }) }, 'off');
    await expect(call(`${url}/v3/profiles/alex`)).rejects.toThrow(/does not match the contract/);
  });
});

describe('the policy table', () => {
  const rateLimited = { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1700000000' };
  const notFound: AnyHandler = async () => {
    throw new ApiError(404, 'not_found', 'Profile not found', rateLimited);
  };

  it("runs an operation's admit steps in order, after security and before the handler; other operations run none", async () => {
    const steps: string[] = [];
    let handled = 0;
    const { url } = await serve(
      {
        getProfileById: async () => {
          handled++;
          throw new ApiError(404, 'not_found', 'Profile not found', rateLimited);
        },
        getOpenApiDocument: async () => ({ status: 200, body: contract.document, headers: { ETag: '"doc"' } }),
      },
      'strict',
      {
        policies: {
          getProfileById: {
            admit: [
              (_ctx, principal) => void steps.push(`first ${(principal as { kind: string }).kind}`),
              async () => {
                steps.push('second');
                throw new ApiError(429, 'rate_limit_exceeded', 'Rate limit exceeded', {
                  ...rateLimited,
                  'Retry-After': '60',
                });
              },
            ],
          },
        },
      },
    );
    const refused = await call(`${url}/v3/profiles/alex`, { headers: { Authorization: 'Bearer good' } });
    expect(refused.status).toBe(429);
    expect(steps).toEqual(['first key', 'second']);
    expect(handled).toBe(0);
    expect((await call(`${url}/v3/openapi`)).status).toBe(200);
    expect(steps).toHaveLength(2);
  });

  it("writes an operation's answers with its presenter, and what no operation answers with the service's", async () => {
    const { url } = await serve({ getProfileById: notFound }, 'strict', {
      policies: {
        getProfileById: {
          present: (ctx, answer) => {
            ctx.status = answer.status;
            setHeaders(ctx, answer.headers);
            setHeader(ctx, 'X-Presented-By', 'lookup');
            ctx.body = answer.body;
          },
        },
      },
      present: (ctx, answer) => {
        ctx.status = answer.status;
        setHeader(ctx, 'X-Presented-By', 'service');
        ctx.body = answer.body;
      },
    });
    expect((await call(`${url}/v3/profiles/alex`)).headers.get('x-presented-by')).toBe('lookup');
    expect((await call(`${url}/v3/nothing-here`)).headers.get('x-presented-by')).toBe('service');
  });

  it('refuses to start with a policy for an operation the contract does not have', async () => {
    await expect(serve({}, 'strict', { policies: { updateProfile: {} } })).rejects.toThrow(
      'profiles: policies for operations the contract does not have: updateProfile',
    );
  });
});

describe('security resolvers', () => {
  it('are one per security scheme of the contract, by name; the app does not start otherwise', async () => {
    await expect(serve({}, 'strict', { security: {} })).rejects.toThrow(
      'profiles: the security resolvers must be one per security scheme of the contract (apiKey, oauth); missing: apiKey, oauth',
    );
    const resolve = async () => null;
    await expect(
      serve({}, 'strict', { security: { apiKey: resolve, oauth: resolve, brandNew: resolve } }),
    ).rejects.toThrow(/unknown: brandNew/);
  });

  it('refuse to start when an operation accepts one of several schemes, instead of silently reading the first', async () => {
    const lookup = contract.operations.find((operation) => operation.operationId === 'getProfileById')!;
    const twoSchemes = {
      ...contract,
      securitySchemes: { ...contract.securitySchemes, session: { type: 'apiKey', in: 'cookie', name: 'session' } },
      operations: contract.operations.map((operation) =>
        operation === lookup ? { ...operation, securitySchemes: ['apiKey', 'session'] } : operation,
      ),
    } as typeof contract;
    const resolve = async () => null;
    await expect(
      serve({}, 'strict', { contract: twoSchemes, security: { apiKey: resolve, oauth: resolve, session: resolve } }),
    ).rejects.toThrow('profiles: operation getProfileById names several security schemes (apiKey, session)');
  });

  it('get the credential where the scheme says (here `Authorization: Bearer`); a malformed one is an unknown one', async () => {
    const tokens: string[] = [];
    let principal: unknown;
    const { url } = await serve(
      {
        getProfileById: async (input) => {
          principal = input.principal;
          throw new ApiError(404, 'not_found', 'Profile not found');
        },
      },
      'off',
      {
        security: {
          apiKey: async (token) => (tokens.push(token), token === 'good' ? { kind: 'key' } : null),
          oauth: async () => null,
        },
      },
    );
    await fetch(`${url}/v3/profiles/alex`, { headers: { Authorization: 'Bearer good' } });
    expect(principal).toEqual({ kind: 'key' });
    await fetch(`${url}/v3/profiles/alex`, { headers: { Authorization: 'Basic Z29vZA==' } });
    expect(principal).toEqual({ kind: 'anonymous' });
    expect(tokens).toEqual(['good']);
  });
});
