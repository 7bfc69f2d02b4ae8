import { pino } from 'pino';
import { describe, it } from 'vitest';
import { contractChecker } from '../support/contract.js';
import { sendRequest } from '../support/http.js';
import { startOnBothStores, type On } from '../support/store-reach.js';
import { credentialsFor, knownOnBoth } from './known.js';
import { destructiveLast, fuzzTargets, LIMITS_OUT_OF_REACH, type FuzzTarget } from './targets.js';
import { expectContractAnswer } from './settings.js';

/**
 * The bad-input catalogue of docs/testing.md, row by row and for every operation of
 * every contract the app serves: each kind of bad value in each place,
 * with a valid credential so the value reaches the handlers and the store.
 * Every answer is checked against the contract (never a 5xx, nothing
 * internal); the rows add what the catalogue promises on top.
 *
 * The catalogue is several files (`bad-input.*.test.ts`), so that it runs in
 * several workers at once; each file calls `badInputHarness()` for servers
 * of its own.
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
export async function badInputHarness() {
  const logLines: Record<On['store'], string[]> = { sqlite: [], postgres: [] };
  const stores = await startOnBothStores(LIMITS_OUT_OF_REACH, {
    // Each its own origin: the `/me` operations' OAuth token is got through the flow, from the server as its issuer.
    ownOrigin: true,
    logger: (store) => pino({ level: 'info' }, { write: (line: string) => void logLines[store].push(line) }),
  });
  const checker = await contractChecker();
  // Deletions and what ends the session last: the others' requests name what exists, with a session that is live.
  const targets = destructiveLast(fuzzTargets(stores.sqlite.built.services));
  /** Each store's server's credential for each service, with a session of its own where a request may end one. */
  const { credentials, of: credentialOf } = await credentialsFor(stores, targets);
  /** What the paths name on both servers: the contract's examples name nothing here for terms, files, applications. */
  const known = await knownOnBoth(stores, (store) => credentials[store].get('developer')!);

  /**
   * The operation's path with its parameters naming what exists (`known`, SQLite's; translated for PostgreSQL as it is
   * sent), else from the contract's examples (`1` when it gives none), one of them replaced.
   */
  function pathOf(target: FuzzTarget, replace: Record<string, string> = {}) {
    const made = known.of(target).path;
    const values = Object.fromEntries(
      target.parameters
        .filter((p) => p.in === 'path')
        .map((p) => [
          p.name,
          encodeURIComponent(String(made[p.name] ?? p.example ?? Object.values(p.examples ?? {})[0]?.value ?? '1')),
        ]),
    );
    return `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => replace[name] ?? values[name]!)}`;
  }

  /** Sends one request as a valid caller of the target's service and checks the answer against the contract. */
  async function send(
    on: On,
    target: FuzzTarget,
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    const wire = {
      method: init.method ?? target.operation.method,
      path: on.store === 'postgres' ? known.translated(path) : path,
      headers: { ...credentialOf(on.store, target), ...init.headers, ...on.headers() },
      ...(init.body === undefined ? {} : { body: init.body }),
    };
    const answer = await sendRequest(on.server.url, wire);
    expectContractAnswer(checker, wire, answer);
    return answer;
  }

  /** Each query parameter of each operation (those declared elsewhere in the service too). */
  const queryTargets = targets.flatMap((target) =>
    [...target.parameters, ...target.siblingQuery]
      .filter((p) => p.in === 'query')
      .map((p) => ({
        label: `${target.label} ?${p.name}`,
        target,
        name: p.name,
        integer: isInteger(p.schema),
        declared: target.parameters.includes(p),
      })),
  );

  return { logLines, stores, checker, targets, credentials, queryTargets, pathOf, send };
}

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

/**
 * Valid values that are large for a store: past PostgreSQL's `integer`
 * (2^31), and the largest safe integer. Sent in every integer parameter: the
 * contract refuses them where it bounds the value, else they reach the store,
 * which must answer as for any other number (SQLite's integers are 64-bit,
 * PostgreSQL's ID columns 32-bit).
 */
export const LARGE_INTEGERS = ['2147483648', '9007199254740991'] as const;

/** Whether a parameter's schema is an integer (or an integer among alternatives). */
function isInteger(schema: { type?: string | string[]; anyOf?: unknown[]; oneOf?: unknown[] } | undefined): boolean {
  if (!schema) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer')) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((alternative) =>
    isInteger(alternative as Parameters<typeof isInteger>[0]),
  );
}

/**
 * Query strings holding `pair(name)` for each of `names`, as few as fit in
 * `limit` characters each: a request head stays well under Node's 16 KiB (a
 * longer one is a `431` from Node's parser, not what is tested).
 */
export function queryChunks(names: readonly string[], pair: (name: string) => string, limit = 6000): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const name of names) {
    const piece = pair(name);
    if (current && current.length + 1 + piece.length > limit) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}&${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * The query-value rows for part `part` of `parts` (each part a file, so a
 * worker of its own). A parameter the operation declares gets each wrong
 * value in a request of its own. Those only other operations of the service
 * declare are left out of what any handler reads by construction (the
 * pipeline hands a handler its declared parameters alone: `readQuery`), so
 * they are sent together: each wrong value in all of them at once, and all
 * of them repeated at once; a handler that read one raw would still be
 * given every value, in far fewer requests.
 */
export async function describeQueryValues(part: number, parts: number): Promise<void> {
  const { stores, queryTargets, targets, pathOf, send } = await badInputHarness();
  const declared = queryTargets.filter((query) => query.declared).filter((_, index) => index % parts === part);
  const undeclared = targets
    .filter((target) => target.siblingQuery.some((p) => p.in === 'query'))
    .filter((_, index) => index % parts === part)
    .map((target) => ({ label: target.label, target, names: target.siblingQuery.map((p) => p.name) }));
  describe.concurrent('query values of wrong types, repeated keys, unknown parameters', () => {
    it.each(declared)('$label: every wrong value, and the key repeated', async ({ target, name, integer }) => {
      await stores.onReachedStores(async (on) => {
        await Promise.all([
          ...[...QUERY_VALUES, ...(integer ? LARGE_INTEGERS : [])].map((value) =>
            send(on, target, `${pathOf(target)}?${name}=${value}`),
          ),
          send(on, target, `${pathOf(target)}?${name}=1&${name}=abc&${name}=`),
        ]);
      });
    });
    it.each(undeclared)(
      '$label: every wrong value in every query parameter only other operations declare, and each repeated',
      async ({ target, names }) => {
        const queries = [
          ...QUERY_VALUES.flatMap((value) => queryChunks(names, (name) => `${name}=${value}`)),
          ...queryChunks(names, (name) => `${name}=1&${name}=abc&${name}=`),
        ];
        await stores.onReachedStores(async (on) => {
          await Promise.all(queries.map((query) => send(on, target, `${pathOf(target)}?${query}`)));
        });
      },
    );
  });
}
