import { camelCased } from '../columns.js';
import { prepared } from '../../../../platform/store/prepared.js';
import type { PublishingUsers } from '../../domain/publishingStore.js';
import { isStorableId, type Db } from './db.js';
import { accountStanding } from '../../../../accounts/accounts.js';
import type { Kysely } from 'kysely';
import type { PublishingDatabase } from '../tables.js';
import { primarySite, toUser } from './userRow.js';

/** A bearer token's owner, read on the request path when not remembered: built once (see `prepared`). */
const tokenOwner = prepared((db: Db, p: { tokenHash: string }) =>
  db
    .selectFrom('access_tokens')
    .select('user_id')
    .where('token_hash', '=', p.tokenHash)
    .where('revoked_at', 'is', null),
);

/** Users and their bearer tokens on a Kysely database (SQLite or PostgreSQL); only a token's hash is stored. */
export function kyselyPublishingUsers(db: Kysely<PublishingDatabase>): PublishingUsers {
  return {
    async findUserByLogin(login) {
      const row = await db
        .selectFrom('users')
        .selectAll('users')
        .select(primarySite)
        .where('users.login', '=', login)
        .executeTakeFirst();
      return row && toUser(row);
    },

    async findUserById(id) {
      if (!isStorableId(id)) return undefined;
      const row = await db
        .selectFrom('users')
        .selectAll('users')
        .select(primarySite)
        .where('users.id', '=', id)
        .executeTakeFirst();
      return row && toUser(row);
    },

    // The accounts' tables are in the same database; read only through their own function.
    accountStanding: (accountId) => accountStanding(db, accountId),

    async sitesOfUser(userId) {
      const rows = await db
        .selectFrom('site_roles')
        .select('site_id')
        .where('user_id', '=', userId)
        .orderBy('site_id')
        .execute();
      return rows.map((row) => Number(row.site_id));
    },

    async createAccessToken(token) {
      await db
        .insertInto('access_tokens')
        .values({
          id: token.id,
          token_hash: token.tokenHash,
          user_id: token.userId,
          created_at: token.createdAt.toISOString(),
          revoked_at: null,
        })
        .execute();
    },

    async tokenOwner(tokenHash) {
      const row = await tokenOwner.executeTakeFirst(db, { tokenHash });
      return row?.user_id;
    },

    async revokeAccessTokens(selector, at) {
      let query = db.updateTable('access_tokens').set({ revoked_at: at.toISOString() }).where('revoked_at', 'is', null);
      if ('tokenHash' in selector) query = query.where('token_hash', '=', selector.tokenHash);
      else if ('id' in selector) query = query.where('id', '=', selector.id);
      else query = query.where('user_id', '=', selector.userId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async listAccessTokens(userId) {
      let query = db
        .selectFrom('access_tokens')
        .innerJoin('users', 'users.id', 'access_tokens.user_id')
        .select([
          'access_tokens.id',
          'access_tokens.user_id',
          'users.login',
          'access_tokens.created_at',
          'access_tokens.revoked_at',
        ])
        .orderBy('access_tokens.created_at')
        .orderBy('access_tokens.id');
      if (userId !== undefined) query = query.where('access_tokens.user_id', '=', userId);
      const rows = await query.execute();
      return rows.map(camelCased);
    },
  };
}
