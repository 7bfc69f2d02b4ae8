import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { IOS_ME_READS } from '../../fixtures/client-bodies.js';
import { kyselyDeveloperAccounts } from '../../../src/services/developer/store/kysely/accounts.js';
import type { DeveloperDatabase } from '../../../src/services/developer/store/tables.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * `GET /me` as iOS reads it (issue 54, row 5; WordPressKit
 * `AccountServiceRemoteREST.m` `getAccountDetailsWithSuccess:`, v1.1, no
 * parameters): `email_verified` is the account's verification state, which
 * the developer dashboard's verification link sets (through its store, as
 * the link's flow does), and `date` the account's registration date.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['author', 'editor']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const me = (login: string) => callJson(harness, 'GET', '/rest/v1.1/me', tokens[login]);

/** The account a demo user belongs to, and when it was made. */
async function accountOf(login: string): Promise<{ id: string; createdAt: string }> {
  const user = await harness.store.findUserByLogin(login);
  const row = await (harness.server.built.db as unknown as Kysely<DeveloperDatabase>)
    .selectFrom('accounts')
    .select(['id', 'created_at'])
    .where('id', '=', user?.accountId ?? '')
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: row.created_at };
}

describe('GET /me: email_verified and date (WordPressKit remoteUserFromDictionary:)', () => {
  it('answers every key iOS reads, date as ISO 8601 (the account’s registration), email_verified a boolean', async () => {
    const answer = await me('author');
    expect(answer.status).toBe(200);
    for (const key of IOS_ME_READS) expect(answer.body, key).toHaveProperty(key);
    const account = await accountOf('author');
    expect(answer.body.date).toBe(account.createdAt.replace(/\.\d{3}Z$/, '+00:00'));
    expect(answer.body.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(typeof answer.body.email_verified).toBe('boolean');
  });

  it('follows the account’s verification: false until the dashboard verifies the address, then true', async () => {
    const authorVerified = (await me('author')).body.email_verified;
    const account = await accountOf('editor');
    const db = harness.server.built.db as unknown as Kysely<DeveloperDatabase>;
    await db.updateTable('accounts').set({ email_verified_at: null }).where('id', '=', account.id).execute();
    expect((await me('editor')).body.email_verified).toBe(false);
    // The store call the verification link's flow makes (`verifyEmail` in flows/emailFlows.ts).
    await db
      .insertInto('developer_credentials')
      .values({ account_id: account.id, password_hash: 'x', created_at: account.createdAt })
      .onConflict((conflict) => conflict.column('account_id').doNothing())
      .execute();
    await kyselyDeveloperAccounts(db).markEmailVerified(account.id);
    expect((await me('editor')).body.email_verified).toBe(true);
    // Another account is unchanged.
    expect((await me('author')).body.email_verified).toBe(authorVerified);
  });
});
