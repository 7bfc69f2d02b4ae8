import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../scripts/bench/statements.js';
import { restore, startPublishing, trash, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

/** The SQL statements the process runs while `request` is answered (the benchmark's recorder). */
async function statementsOf(request: () => Promise<{ status: number }>): Promise<string[]> {
  const seen: string[] = [];
  const stop = recordStatements((text) => seen.push(text));
  let status: number;
  try {
    ({ status } = await request());
  } finally {
    stop();
  }
  expect(status).toBe(200);
  return seen;
}

/**
 * What one restore of a trashed post costs the store, counted so that a
 * statement added to the path fails here ("restore ... in as few statements
 * as the rules allow"): the caller's token, the site, the caller's
 * capabilities on it, the post (4); the transition in one transaction:
 * begin, the post and its trash memory, whether its slug is free, the
 * conditional update, the trash memory forgotten, the comments given back,
 * commit (7; PostgreSQL also holds the site's row, so that restores needing
 * a free slug on one site take turns: 8); the post object's author, terms,
 * recent attachments, all counts in one statement, and its metadata (5). The
 * post after the transition is what the transaction wrote over what was
 * read, not read again.
 */
describe('the statements of a restore', () => {
  const sqlite = () => harness.server.config.databaseUrl.startsWith('sqlite:');

  it('a trashed post: 16 on SQLite, 17 on PostgreSQL', async () => {
    const statements = await statementsOf(() => restore(harness, admin, 1, 101));
    expect(statements, statements.join('\n')).toHaveLength(sqlite() ? 16 : 17);
  });

  it('a post not in the trash is answered as it is, with no transaction: the 4 checks and the 5 reads of its object (9)', async () => {
    const statements = await statementsOf(() => restore(harness, admin, 1, 108));
    expect(statements.some((text) => /^\s*(begin|update|insert|delete)/i.test(text)), statements.join('\n')).toBe(false);
    expect(statements, statements.join('\n')).toHaveLength(9);
  });

  it('a post the API has just trashed costs the same to restore', async () => {
    await statementsOf(() => trash(harness, admin, 1, 108));
    const statements = await statementsOf(() => restore(harness, admin, 1, 108));
    expect(statements, statements.join('\n')).toHaveLength(sqlite() ? 16 : 17);
  });
});
