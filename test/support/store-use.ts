import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * On the PostgreSQL project only: a test file that ran tests but never
 * connected to PostgreSQL fails, saying how to mark it. Every file runs on
 * both stores unless it is independent of the store by `vitest.config.ts`'s
 * rule (its folder, or `// @store-independent` as its first line); without
 * this check, a new file that never touches the store would run twice for
 * nothing, silently. Every connection of the tests
 * (the servers' pools, the support's own clients) is a `pg.Client`, so its
 * `connect` tells.
 */
if ((process.env.TEST_DATABASE_URL ?? '').startsWith('postgres')) {
  const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('contract-first-api.postgres-used')] ??=
    patchConnect()) as { used: boolean };
  let ran = 0;
  beforeAll(() => {
    state.used = false;
    ran = 0;
  });
  afterEach(() => {
    ran++;
  });
  afterAll(() => {
    if (ran > 0 && !state.used) {
      throw new Error(
        'this file ran on PostgreSQL without ever connecting to it: make `// @store-independent` its first line (see vitest.config.ts), so it runs once',
      );
    }
  });
}

function patchConnect(): { used: boolean } {
  const state = { used: false };
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const connect = pg.Client.prototype.connect as (...args: unknown[]) => unknown;
  pg.Client.prototype.connect = function (this: unknown, ...args: unknown[]) {
    state.used = true;
    return connect.apply(this, args);
  } as typeof pg.Client.prototype.connect;
  return state;
}
