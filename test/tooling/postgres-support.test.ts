// @store-independent: the test support's own PostgreSQL statements, on the suite's server whatever store the project's servers use.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { recordStatements } from '../../scripts/bench/statements.js';
import { postgresUrl, requirePostgres } from '../support/postgres.js';

/**
 * The tests that count a request's statements record every statement the
 * process sends (`scripts/bench/statements.ts`). The support's own
 * statements (the spare copy of the template it makes ahead, the drops it
 * queues for servers that closed) run beside those tests, so they must not
 * be recorded: a queued drop once counted as a restore's tenth statement.
 */
describe("the PostgreSQL test support's own statements", () => {
  it('are not seen by a statement recorder, while a client of the tests is', async () => {
    const seen: string[] = [];
    const stop = recordStatements((text) => seen.push(text));
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await requirePostgres();
      await client.connect();
      await client.query('select 2');
    } finally {
      stop();
      await client.end();
    }
    expect(seen).toEqual(['select 2']);
  });
});
