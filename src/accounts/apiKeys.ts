import type { Kysely } from 'kysely';
import type { AccountsTables } from './tables.js';
import { ensureAccount, findAccountId } from './accounts.js';
import { canonicalInbox } from './email.js';
import { applicationNamed, insertApiKey, insertApplication } from './rows.js';
import { prepared } from '../platform/store/prepared.js';

/** Accounts, their applications and the applications' API keys. */
export interface ApiKeyRegistry {
  /**
   * The id of the key with this hash unless it is unknown or revoked. Records
   * the use (`last_used_at`, at most once a minute per key) without waiting
   * for the write. Reads the store every time; the Profiles API reads through
   * `cachedActiveKeys`.
   */
  findActiveKey(keyHash: string): Promise<ActiveKey | undefined>;
  /** Creates (or reuses) the account and the application by name, and adds a key to it, in one transaction. */
  createApiKey(request: NewApiKey): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<'revoked' | 'already-revoked' | 'unknown'>;
  /** Every key of the account's applications, oldest first; undefined when there is no such account. */
  listApiKeys(email: string): Promise<ApiKeyListing[] | undefined>;
}

/** An active key and the account whose application it belongs to. */
export interface ActiveKey {
  keyId: string;
  accountId: string;
  /** The inbox the account's address reaches (`canonicalInbox`): several accounts of one inbox share its allowance. */
  inbox: string;
}

export interface NewApiKey {
  email: string;
  application: { name: string; description: string; websiteUrl: string };
  key: { hash: string; displayPrefix: string };
}

export interface CreatedApiKey {
  keyId: string;
  accountCreated: boolean;
  applicationId: string;
  applicationCreated: boolean;
}

export interface ApiKeyListing {
  id: string;
  application: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** `last_used_at` is refreshed at most this often, so keyed lookups do not write on every request. */
const LAST_USE_RESOLUTION_MS = 60_000;

/** An active key by its hash, with its account: built once (see `prepared`), as it runs on keyed lookups the cache has not seen. */
const activeKeyByHash = prepared((db: Kysely<AccountsTables>, p: { keyHash: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('api_applications', 'api_applications.id', 'api_keys.application_id')
    .innerJoin('accounts', 'accounts.id', 'api_applications.account_id')
    .select(['api_keys.id', 'api_keys.last_used_at', 'api_applications.account_id', 'accounts.email'])
    .where('api_keys.key_hash', '=', p.keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** The API keys on a Kysely database (SQLite or PostgreSQL): the lookup of the Profiles API and the admin command line's keys. */
export function kyselyApiKeyRegistry(db: Kysely<AccountsTables>): ApiKeyRegistry {
  return {
    async findActiveKey(keyHash) {
      const key = await activeKeyByHash.executeTakeFirst(db, { keyHash });
      if (!key) return undefined;
      const now = Date.now();
      if (key.last_used_at === null || now - Date.parse(key.last_used_at) >= LAST_USE_RESOLUTION_MS) {
        // Not awaited: the use is recorded beside the request, never in its way (a failed write only
        // leaves `last_used_at` older; the store's error metric counts it).
        db.updateTable('api_keys')
          .set({ last_used_at: new Date(now).toISOString() })
          .where('id', '=', key.id)
          .execute()
          .catch(() => {});
      }
      return { keyId: key.id, accountId: key.account_id, inbox: canonicalInbox(key.email) };
    },

    async createApiKey({ email, application, key }) {
      return db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const account = await ensureAccount(trx, email, now);
        const existing = await applicationNamed(trx, account.id, application.name);
        const applicationId = existing ?? (await insertApplication(trx, account.id, application, now));
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
      const accountId = await findAccountId(db, email);
      if (!accountId) return undefined;
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
        .where('api_applications.account_id', '=', accountId)
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
