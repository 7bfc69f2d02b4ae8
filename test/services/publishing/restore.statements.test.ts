import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../../scripts/bench/statements.js';
import { restore, CALLERS_REMEMBERED, startPublishing, trash, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing(CALLERS_REMEMBERED);
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
 * as the rules allow"): the post (1; the caller's token, the site and the
 * caller's capabilities on it are read on their first use only, then known
 * to the instance for `ACCESS_TOKEN_CACHE_MS` and `SITE_CACHE_MS`); the transition in one
 * transaction: begin, the post and its trash memory, whether its slug is
 * free, the conditional update, the trash memory forgotten, the comments
 * given back, commit (7; PostgreSQL also holds the site's row, so that
 * restores needing a free slug on one site take turns: 8); the post object's
 * author, terms, recent attachments, all counts in one statement, and its
 * metadata (5). The post after the transition is what the transaction wrote
 * over what was read, not read again.
 */
describe('the statements of a restore', () => {
  const sqlite = () => harness.server.config.databaseUrl.startsWith('sqlite:');
  const readsToken = (statements: string[]) =>
    statements.filter((text) => /\bfrom\s+"?access_tokens"?/i.test(text)).length;
  const readsSiteOrCapabilities = (statements: string[]) =>
    statements.filter(
      (text) =>
        /\bfrom\s+"?sites"?\s+where\b/i.test(text) ||
        /\bfrom\s+"?site_roles"?\s+inner\s+join\s+"?role_capabilities"?/i.test(text),
    ).length;

  it('a post not in the trash is answered as it is, with no transaction: the post and the 5 reads of its object; the token, site and capabilities read on their first use only', async () => {
    const first = await statementsOf(() => restore(harness, admin, 1, 108));
    expect(readsToken(first), first.join('\n')).toBe(1);
    expect(readsSiteOrCapabilities(first), first.join('\n')).toBe(2);
    expect(first, first.join('\n')).toHaveLength(9);
    const statements = await statementsOf(() => restore(harness, admin, 1, 108));
    expect(
      statements.some((text) => /^\s*(begin|update|insert|delete)/i.test(text)),
      statements.join('\n'),
    ).toBe(false);
    expect(readsToken(statements), statements.join('\n')).toBe(0);
    expect(readsSiteOrCapabilities(statements), statements.join('\n')).toBe(0);
    expect(statements, statements.join('\n')).toHaveLength(6);
  });

  it('a trashed post: 13 on SQLite, 14 on PostgreSQL', async () => {
    const statements = await statementsOf(() => restore(harness, admin, 1, 101));
    expect(statements, statements.join('\n')).toHaveLength(sqlite() ? 13 : 14);
  });

  it('a post the API has just trashed costs the same to restore', async () => {
    await statementsOf(() => trash(harness, admin, 1, 108));
    const statements = await statementsOf(() => restore(harness, admin, 1, 108));
    expect(statements, statements.join('\n')).toHaveLength(sqlite() ? 13 : 14);
  });
});
