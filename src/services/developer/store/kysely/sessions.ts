import type { Kysely } from 'kysely';
import { accountEmailVerified } from '../../../../accounts/accounts.js';
import type { DeveloperDatabase } from '../tables.js';
import type { DeveloperSessions } from '../../domain/developerStore.js';
import { prepared } from '../../../../platform/store/prepared.js';

/**
 * A session that has not expired, with its account's email and whether the address is verified (the accounts'
 * own record, as src/accounts reads it): every dashboard request runs it, so it is built once (see `prepared`).
 */
const liveSession = prepared((db: Kysely<DeveloperDatabase>, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('developer_sessions')
    .innerJoin('accounts', 'accounts.id', 'developer_sessions.account_id')
    .select([
      'developer_sessions.account_id',
      'developer_sessions.expires_at',
      'developer_sessions.created_at',
      'developer_sessions.last_seen_at',
      'accounts.email',
      accountEmailVerified.as('email_verified'),
    ])
    .where('developer_sessions.token_hash', '=', p.tokenHash)
    .where('developer_sessions.expires_at', '>', p.now),
);

/** Live sessions an account keeps at most; a new one ends the oldest beyond them. */
export const MAX_SESSIONS_PER_ACCOUNT = 20;

/** `last_seen_at` is refreshed at most this often, so a session's requests do not each write. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Dashboard sessions on a Kysely database; expiry is checked on every lookup. */
export function kyselyDeveloperSessions(db: Kysely<DeveloperDatabase>): DeveloperSessions {
  return {
    async createSession({ tokenHash, accountId, expiresAt }) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('developer_sessions')
          .values({
            token_hash: tokenHash,
            account_id: accountId,
            created_at: new Date().toISOString(),
            expires_at: expiresAt,
            last_seen_at: null,
          })
          .execute();
        // The account's oldest sessions beyond the newest few end: log-ins never pile up rows.
        await trx
          .deleteFrom('developer_sessions')
          .where('account_id', '=', accountId)
          .where('token_hash', 'not in', (eb) =>
            eb
              .selectFrom('developer_sessions')
              .select('token_hash')
              .where('account_id', '=', accountId)
              .orderBy('created_at', 'desc')
              .orderBy('token_hash')
              .limit(MAX_SESSIONS_PER_ACCOUNT),
          )
          .execute();
      });
    },

    async findSession(tokenHash, idleSince) {
      const now = new Date();
      const row = await liveSession.executeTakeFirst(db, { tokenHash, now: now.toISOString() });
      const lastSeen = row && (row.last_seen_at ?? row.created_at);
      if (!row || lastSeen! <= idleSince) return undefined;
      if (now.getTime() - Date.parse(lastSeen!) >= LAST_SEEN_RESOLUTION_MS) {
        await db
          .updateTable('developer_sessions')
          .set({ last_seen_at: now.toISOString() })
          .where('token_hash', '=', tokenHash)
          .execute();
      }
      return (
        row && {
          tokenHash,
          accountId: row.account_id,
          expiresAt: row.expires_at,
          email: row.email,
          emailVerified: Boolean(row.email_verified),
        }
      );
    },

    async listSessions(accountId) {
      const rows = await db
        .selectFrom('developer_sessions')
        .select(['token_hash', 'created_at', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('expires_at', '>', new Date().toISOString())
        .orderBy('created_at', 'desc')
        .orderBy('token_hash')
        .execute();
      return rows.map((row) => ({
        tokenHash: row.token_hash,
        accountId,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      }));
    },

    async deleteSession(tokenHash) {
      await db.deleteFrom('developer_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteExpiredSessions(idleSince) {
      const result = await db
        .deleteFrom('developer_sessions')
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', new Date().toISOString()),
            eb(eb.fn.coalesce('last_seen_at', 'created_at'), '<=', idleSince),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
