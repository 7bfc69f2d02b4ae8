import type { Kysely } from 'kysely';
import type { PublishingTables } from './tables.js';

/**
 * The publishing module's `farewell`: the command-line tokens of the user
 * linked to an account about to be deleted are revoked. The user keeps its
 * posts (`users.account_id` is set null when the account goes), but not its
 * tokens.
 */
export async function revokeAccountTokens(db: Kysely<PublishingTables>, accountId: string): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('revoked_at', 'is', null)
    .where('user_id', 'in', db.selectFrom('users').select('id').where('account_id', '=', accountId))
    .execute();
}
