import type { Kysely, Transaction } from 'kysely';
import { deleteGrantsOf } from '../../../accounts/oauth/grants.js';
import type { DeveloperDatabase } from './tables.js';

/**
 * What ends when an account's credentials change, on every path that changes
 * them: a new password from the dashboard (the session that changed it is
 * kept), a reset link, the admin command `accounts password`, and the
 * account's deletion. In the caller's transaction, so the change and its
 * ends commit together:
 * - the account's dashboard sessions (but `keptSession`);
 * - every grant the person gave an app, with its codes and OAuth access and
 *   refresh tokens (whoever had the old password could have made them);
 * - every reset link of the account (one asked for earlier would undo the change).
 *
 * The one place these are listed: a new way to change credentials calls it
 * (docs/developer.md, "Credentials changed"). A running instance that
 * remembers a token forgets it when the change bus tells it (the dashboard's
 * paths announce it); the admin command, outside the servers, ends the tokens
 * in the store, which an instance asks again within its token cache's bound.
 */
export async function endWhatCredentialsOpened(
  trx: Kysely<DeveloperDatabase> | Transaction<DeveloperDatabase>,
  accountId: string,
  { keptSession }: { keptSession?: string } = {},
): Promise<void> {
  let sessions = trx.deleteFrom('developer_sessions').where('account_id', '=', accountId);
  if (keptSession !== undefined) sessions = sessions.where('token_hash', '!=', keptSession);
  await sessions.execute();
  await deleteGrantsOf(trx, { accountId });
  await trx
    .deleteFrom('developer_email_tokens')
    .where('account_id', '=', accountId)
    .where('purpose', '=', 'reset')
    .execute();
}
