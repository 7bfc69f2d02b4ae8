import type { Kysely } from 'kysely';
import type { DeveloperDatabase } from '../tables.js';
import type { DeveloperSessions } from '../developerStore.js';
import { prepared } from '../../../../platform/store/prepared.js';

/** A session that has not expired, with its account's email: every dashboard request runs it, so it is built once (see `prepared`). */
const liveSession = prepared((db: Kysely<DeveloperDatabase>, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('developer_sessions')
    .innerJoin('accounts', 'accounts.id', 'developer_sessions.account_id')
    .leftJoin('developer_credentials', 'developer_credentials.account_id', 'developer_sessions.account_id')
    .select(['developer_sessions.account_id', 'developer_sessions.expires_at', 'accounts.email', 'developer_credentials.email_verified_at'])
    .where('developer_sessions.token_hash', '=', p.tokenHash)
    .where('developer_sessions.expires_at', '>', p.now),
);

/** Dashboard sessions on a Kysely database; expiry is checked on every lookup. */
export function kyselyDeveloperSessions(db: Kysely<DeveloperDatabase>): DeveloperSessions {
  return {
    async createSession({ tokenHash, accountId, expiresAt }) {
      await db
        .insertInto('developer_sessions')
        .values({ token_hash: tokenHash, account_id: accountId, created_at: new Date().toISOString(), expires_at: expiresAt })
        .execute();
    },

    async findSession(tokenHash) {
      const row = await liveSession.executeTakeFirst(db, { tokenHash, now: new Date().toISOString() });
      return (
        row && {
          tokenHash,
          accountId: row.account_id,
          expiresAt: row.expires_at,
          email: row.email,
          emailVerified: row.email_verified_at != null,
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
      return rows.map((row) => ({ tokenHash: row.token_hash, accountId, createdAt: row.created_at, expiresAt: row.expires_at }));
    },

    async deleteSession(tokenHash) {
      await db.deleteFrom('developer_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteExpiredSessions() {
      const result = await db
        .deleteFrom('developer_sessions')
        .where('expires_at', '<=', new Date().toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
