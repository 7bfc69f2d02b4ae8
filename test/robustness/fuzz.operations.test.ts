// @store-independent: it sends each request to SQLite, and to PostgreSQL too when it reached the store (test/support/store-reach.ts)
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { contractChecker } from '../support/contract.js';
import { sendRequest, type WireRequest } from '../support/http.js';
import { startOnBothStores, type On } from '../support/store-reach.js';
import { credentialsFor, knownOnBoth } from './known.js';
import { focusedRequestFor, requestFor } from './requests.js';
import { destructiveLast, fuzzTargets, LIMITS_OUT_OF_REACH } from './targets.js';
import { expectContractAnswer, fuzzSettings, fuzzTimeoutMs } from './settings.js';

/**
 * Every operation of every contract the app serves, fuzzed from its own
 * schemas: valid and invalid path values, query parameters, headers,
 * bodies and methods. Whatever the request, the answer is one the contract
 * describes for that operation (or the service's generic 404/405), checked
 * by the independent contract checker, never a 5xx, and shows nothing
 * internal. Long runs: see settings.ts.
 *
 * Each request goes to a server on SQLite, and to one on PostgreSQL too when
 * it reached the store past the contract's validation (`onReachedStores`):
 * one that routing, security or validation refuses is answered by the same
 * code on both stores.
 */
// Each its own origin: the `/me` operations' OAuth token is got through the flow, from the server as its issuer.
const stores = await startOnBothStores(LIMITS_OUT_OF_REACH, { ownOrigin: true });
const checker = await contractChecker();
// Deletions and what ends the session last: the others' valid requests name what exists, with a session that is live.
const targets = destructiveLast(fuzzTargets(stores.sqlite.built.services));
/** Each store's server's credentials, with a dashboard session of its own where a request may end one (`credentialsFor`). */
const { credentials, of: credentialOf } = await credentialsFor(stores, targets);
/** What the focused requests' paths name on both servers (`known` of `focusedRequestFor`), made alike on each. */
const known = await knownOnBoth(stores, (store) => credentials[store].get('developer')!);

/**
 * The requests are generated with the SQLite server's credentials (as sent, or spelled loosely); on
 * PostgreSQL each secret is the one its own server issued in the same place: pairs of differing parts
 * (split at spaces, `;` and `=`) of the two servers' headers.
 */
const secrets: [string, string][] = [...credentials.sqlite].flatMap(([service, headers]) =>
  Object.entries(headers ?? {}).flatMap(([name, value]) => {
    const parts = value.split(/[ ;=]/);
    const theirs = (credentials.postgres.get(service)?.[name] ?? '').split(/[ ;=]/);
    return parts.flatMap((part, index): [string, string][] =>
      theirs[index] !== undefined && theirs[index] !== part ? [[part, theirs[index]!]] : [],
    );
  }),
);

/** The request as sent on a store: named for the run, and with that store's secrets and what it made (`known`). */
function onStore(on: On, wire: WireRequest): WireRequest {
  const headers = { ...wire.headers, ...on.headers() };
  if (on.store === 'sqlite') return { ...wire, headers };
  for (const [name, value] of Object.entries(headers))
    headers[name] = secrets.reduce((text, [ours, theirs]) => text.replaceAll(ours, theirs), value);
  return { ...wire, path: known.translated(wire.path), headers };
}

/** Sends a generated request to SQLite, and to PostgreSQL where it reached the store; checks each answer. */
async function answersAsContracted(wire: WireRequest) {
  await stores.onReachedStores(async (on) => {
    const sent = onStore(on, wire);
    expectContractAnswer(checker, sent, await sendRequest(on.server.url, sent));
  });
}

it('covers every operation of every contract the app serves', () => {
  const services = stores.sqlite.built.services;
  expect(new Set(targets.map((t) => t.service.name))).toEqual(new Set(services.map((s) => s.name)));
  expect(targets.length).toBe(services.reduce((n, s) => n + s.contract.operations.length, 0));
});

it('sends a request to PostgreSQL with the secrets its own server issued, however spelled', () => {
  const headersOf = (store: On['store']) => {
    const token = credentials[store].get('publishing')!.authorization!.replace(/^Bearer /, '');
    const { cookie, 'x-csrf-token': csrf } = credentials[store].get('developer')!;
    return { authorization: `bearer  ${token}  `, cookie: `a=b; ${cookie}`, 'x-csrf-token': csrf! };
  };
  const sent = onStore(
    { store: 'postgres', server: stores.postgres, headers: () => ({}) },
    {
      method: 'GET',
      path: '/',
      headers: headersOf('sqlite'),
    },
  );
  expect(sent.headers).toEqual(headersOf('postgres'));
  expect(headersOf('postgres')).not.toEqual(headersOf('sqlite'));
});

describe.each(targets)('$label', (target) => {
  const valid = credentialOf('sqlite', target);
  // The focused requests first: a generated one may use up what their valid part names (a session, with another method).
  test.prop([focusedRequestFor(target, valid, known.of(target))], fuzzSettings)(
    'answers a valid, authenticated request with one bad value as its contract describes',
    answersAsContracted,
    fuzzTimeoutMs,
  );

  test.prop([requestFor(target, valid)], fuzzSettings)(
    'answers any request as its contract describes: never 5xx, nothing internal',
    answersAsContracted,
    fuzzTimeoutMs,
  );
});

it('is still healthy after the fuzzing', async () => {
  for (const server of [stores.sqlite, stores.postgres])
    expect((await sendRequest(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
});
