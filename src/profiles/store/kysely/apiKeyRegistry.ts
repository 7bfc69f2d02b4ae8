import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../store/database.js';
import { normalizeEmail } from '../../domain/emailHash.js';
import type { ApiKeyRegistry } from '../profilesStore.js';
import { ensureAccount } from './accounts.js';

/** `last_used_at` is refreshed at most this often, so keyed lookups do not write on every request. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Adds a key to an application: only its hash and display prefix are stored.
 * The one place an `api_keys` row is written (the admin command line and the
 * developer dashboard both come here).
 */
export async function insertApiKey(
  db: Kysely<Database> | Transaction<Database>,
  applicationId: string,
  key: { hash: string; displayPrefix: string },
  now: string,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('api_keys')
    .values({
      id,
      application_id: applicationId,
      key_hash: key.hash,
      display_prefix: key.displayPrefix,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return id;
}

/** Accounts, applications and API keys on a Kysely database (SQLite or PostgreSQL). */
export function kyselyApiKeyRegistry(db: Kysely<Database>): ApiKeyRegistry {
  return {
    async findActiveKey(keyHash) {
      const key = await db
        .selectFrom('api_keys')
        .innerJoin('api_applications', 'api_applications.id', 'api_keys.application_id')
        .select(['api_keys.id', 'api_keys.last_used_at', 'api_applications.account_id'])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      if (!key) return undefined;
      const now = Date.now();
      if (key.last_used_at === null || now - Date.parse(key.last_used_at) >= LAST_USE_RESOLUTION_MS) {
        await db
          .updateTable('api_keys')
          .set({ last_used_at: new Date(now).toISOString() })
          .where('id', '=', key.id)
          .execute();
      }
      return { keyId: key.id, accountId: key.account_id };
    },

    async createApiKey({ email, application, key }) {
      return db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const account = await ensureAccount(trx, email, now);
        const existing = await trx
          .selectFrom('api_applications')
          .select('id')
          .where('account_id', '=', account.id)
          .where('name', '=', application.name)
          .executeTakeFirst();
        const applicationId = existing?.id ?? randomUUID();
        if (!existing) {
          await trx
            .insertInto('api_applications')
            .values({
              id: applicationId,
              account_id: account.id,
              name: application.name,
              description: application.description,
              website_url: application.websiteUrl,
              created_at: now,
            })
            .execute();
        }
        const keyId = await insertApiKey(trx, applicationId, key, now);
        return { keyId, accountCreated: account.created, applicationId, applicationCreated: !existing };
      });
    },

    async revokeApiKey(keyId) {
      const key = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', keyId).executeTakeFirst();
      if (!key) return 'unknown';
      if (key.revoked_at !== null) return 'already-revoked';
      await db
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', keyId)
        .where('revoked_at', 'is', null)
        .execute();
      return 'revoked';
    },

    async listApiKeys(email) {
      const account = await db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', normalizeEmail(email))
        .executeTakeFirst();
      if (!account) return undefined;
      const rows = await db
        .selectFrom('api_keys')
        .innerJoin('api_applications', 'api_applications.id', 'api_keys.application_id')
        .select([
          'api_keys.id',
          'api_applications.name',
          'api_keys.display_prefix',
          'api_keys.created_at',
          'api_keys.last_used_at',
          'api_keys.revoked_at',
        ])
        .where('api_applications.account_id', '=', account.id)
        .orderBy('api_keys.created_at')
        .orderBy('api_keys.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        application: row.name,
        displayPrefix: row.display_prefix,
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
        revokedAt: row.revoked_at,
      }));
    },
  };
}
