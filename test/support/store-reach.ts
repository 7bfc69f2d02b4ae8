import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { afterAll } from 'vitest';
import { freePort } from '../../scripts/tools.js';
import { startServer, type StartOptions, type TestServer } from './server.js';

/**
 * Cases on both stores only where the store can tell them apart.
 *
 * A request that routing, security or the contract's validation refuses
 * never reaches a handler, so never reaches the store with its values: its
 * answer comes from code that is the same on SQLite and PostgreSQL, and
 * asking PostgreSQL too tests nothing more. A file of many such cases (the
 * bad-input catalogue, the fuzzing of every operation) runs once, with a
 * server on each store (`startOnBothStores`), and `onReachedStores` runs a
 * case on SQLite first, then on PostgreSQL when one of its requests reached
 * the store there with its values: it passed the contract's validation, and
 * then a statement ran (its handler's). A request refused before, or
 * answered without the store (the served contract), runs on SQLite alone.
 * Nothing lists the cases by hand: the server says which ones reached.
 *
 * How the server says it: each operation's request validators run in
 * order, and the handler runs only when all of them passed; a last
 * validator added here that always passes marks the request it runs for.
 * Every statement SQLite runs (better-sqlite3's `run`, `get`, `all`,
 * `iterate`, `exec`) after that mark marks the request as stored; the
 * statements before it (the credential's lookup, the rate limits' counters)
 * are the same for every case and do not count. The request is carried by
 * an `AsyncLocalStorage` around the SQLite server's request listeners (so
 * requests in flight side by side are told apart) and named by a header of
 * the test's own that the case sends (`On.headers`: `X-Test-Reach`, which
 * the server ignores like any unknown header). The
 * validators are the worker's compiled contract, shared by every server of
 * the worker, and better-sqlite3's prototypes are the process's: what is
 * added marks only requests of the watched server, and is removed when the
 * file ends.
 */
const handling = new AsyncLocalStorage<{ validated: boolean; stored: boolean }>();

/** Marks each statement run on SQLite for the request being handled; answers the undoing. */
function watchStatements(): () => void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const undo: (() => void)[] = [];
  const mark = (prototype: Record<string, unknown>, names: readonly string[]) => {
    for (const name of names) {
      const original = prototype[name] as (...args: unknown[]) => unknown;
      prototype[name] = function (this: unknown, ...args: unknown[]) {
        const request = handling.getStore();
        if (request?.validated) request.stored = true;
        return original.apply(this, args);
      };
      undo.push(() => {
        prototype[name] = original;
      });
    }
  };
  mark(statement, ['run', 'get', 'all', 'iterate']);
  mark(Database.prototype as unknown as Record<string, unknown>, ['exec']);
  return () => {
    for (const step of undo) step();
  };
}

/** The validator that marks a request as having passed every other one. */
const sentinel = Object.assign(
  () => {
    const request = handling.getStore();
    if (request) request.validated = true;
    return true;
  },
  { errors: null },
) as unknown as ValidateFunction;

/** The header naming a request of a case (lower case, as Node hands headers over). */
const REACH_HEADER = 'x-test-reach';

/** What a case's body gets for the store it runs on. */
export interface On {
  store: 'sqlite' | 'postgres';
  server: TestServer;
  /** Headers to add to each request the case sends (a name for it), so the run can tell which ones reached. */
  headers(): Record<string, string>;
}

export interface BothStores {
  sqlite: TestServer;
  postgres: TestServer;
  /**
   * Runs a case on SQLite, then on PostgreSQL when any request it sent on
   * SQLite (with `on.headers()`) reached the store past the contract's
   * validation; answers the stores it ran on.
   */
  onReachedStores(body: (on: On) => Promise<void>): Promise<On['store'][]>;
}

/**
 * A server on each store, started alike (`env`, and a logger of each one's
 * own from `logger`), closed when the file ends.
 */
export async function startOnBothStores(
  env: Record<string, string>,
  options: Omit<StartOptions, 'logger' | 'store'> & {
    logger?: (store: On['store']) => StartOptions['logger'];
    /** Each server's `PUBLIC_URL` its own address, so its OAuth issuer is where an app reaches it (`startOAuthServer`). */
    ownOrigin?: boolean;
  } = {},
): Promise<BothStores> {
  const { ownOrigin, ...startOptions } = options;
  const [sqlite, postgres] = await Promise.all(
    (['sqlite', 'postgres'] as const).map(async (store) => {
      const port = ownOrigin ? await freePort() : undefined;
      const origin: Record<string, string> = port ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : {};
      return startServer({ ...env, ...origin }, { ...startOptions, store, logger: options.logger?.(store) });
    }),
  );
  afterAll(() => Promise.all([sqlite!.close(), postgres!.close()]));

  const operations = sqlite!.built.services.flatMap((service) => service.contract.operations);
  const added = operations.filter((operation) => {
    if (operation.validateRequest.includes(sentinel)) return false;
    operation.validateRequest.push(sentinel);
    return true;
  });
  afterAll(() => {
    for (const operation of added) operation.validateRequest.splice(operation.validateRequest.indexOf(sentinel), 1);
  });

  afterAll(watchStatements());

  const seen = new Map<string, { validated: boolean; stored: boolean }>();
  const listeners = sqlite!.server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  sqlite!.server.removeAllListeners('request');
  sqlite!.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const record = { validated: false, stored: false };
    const id = req.headers[REACH_HEADER];
    if (typeof id === 'string') seen.set(id, record);
    handling.run(record, () => {
      for (const listener of listeners) listener.call(sqlite!.server, req, res);
    });
  });

  let next = 0;
  return {
    sqlite: sqlite!,
    postgres: postgres!,
    async onReachedStores(body) {
      const ids: string[] = [];
      await body({
        store: 'sqlite',
        server: sqlite!,
        headers: () => {
          const id = `reach-${process.pid}-${++next}`;
          ids.push(id);
          return { [REACH_HEADER]: id };
        },
      });
      const reached = ids.some((id) => seen.get(id)?.stored);
      for (const id of ids) seen.delete(id);
      if (!reached) return ['sqlite'];
      await body({ store: 'postgres', server: postgres!, headers: () => ({}) });
      return ['sqlite', 'postgres'];
    },
  };
}
