import { test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { contractChecker } from '../support/contract.js';
import { issueCredential } from '../support/credentials.js';
import { sendRequest } from '../support/http.js';
import { startServer } from '../support/server.js';
import { focusedRequestFor, fuzzTargets, requestFor } from './requests.js';
import { expectContractAnswer, fuzzSettings, fuzzTimeoutMs } from './settings.js';

/**
 * Every operation of every contract the app serves, fuzzed from its own
 * schemas: valid and invalid path values, query parameters, headers,
 * bodies and methods. Whatever the request, the answer is one the contract
 * describes for that operation (or the service's generic 404/405), checked
 * by the independent contract checker, never a 5xx, and shows nothing
 * internal. Long runs: see settings.ts.
 */
const server = await startServer({
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_KEYED: '1000000',
  RATE_LIMIT_AVATARS: '1000000',
  RATE_LIMIT_PUBLISHING_READS: '1000000',
  // A cheap password hash, so sign-ups and log-ins in the fuzzing stay fast.
  DEVELOPER_PASSWORD_COST: '14',
});
afterAll(() => server.close());
const checker = await contractChecker();
const targets = fuzzTargets(server.built.services);
const credentials = new Map(
  await Promise.all(server.built.services.map(async (s) => [s.name, await issueCredential[s.name]?.(server)] as const)),
);

it('covers every operation of every contract the app serves', () => {
  expect(new Set(targets.map((t) => t.service.name))).toEqual(new Set(server.built.services.map((s) => s.name)));
  expect(targets.length).toBe(server.built.services.reduce((n, s) => n + s.contract.operations.length, 0));
});

describe.each(targets)('$label', (target) => {
  const valid = credentials.get(target.service.name);
  test.prop([requestFor(target, valid)], fuzzSettings)(
    'answers any request as its contract describes: never 5xx, nothing internal',
    async (wire) => {
      expectContractAnswer(checker, wire, await sendRequest(server.url, wire));
    },
    fuzzTimeoutMs,
  );

  test.prop([focusedRequestFor(target, valid)], fuzzSettings)(
    'answers a valid, authenticated request with one bad value as its contract describes',
    async (wire) => {
      expectContractAnswer(checker, wire, await sendRequest(server.url, wire));
    },
    fuzzTimeoutMs,
  );
});

it('is still healthy after the fuzzing', async () => {
  expect((await sendRequest(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
});
