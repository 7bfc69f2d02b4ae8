import type { Kysely } from 'kysely';
import type { AccountsTables } from './tables.js';
import { isUniqueViolation } from '../platform/store/uniqueViolation.js';
import { deleteGrantsOf } from './oauth/grants.js';
import { applicationNamed, holdOwnApplication, insertApiKey, insertApplication, type Executor } from './rows.js';

/** One key of an application, as listed: never the key itself. */
export interface ApiKeyRecord {
  id: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Application {
  id: string;
  name: string;
  description: string;
  websiteUrl: string;
  createdAt: string;
  /** Active keys first, then revoked ones, each newest first. */
  keys: ApiKeyRecord[];
}

export interface NewApplication {
  name: string;
  description: string;
  websiteUrl: string;
}

/** What the store keeps of a newly issued key. */
export interface NewKey {
  hash: string;
  displayPrefix: string;
}

/** An application after a key was issued for it, and that key's id. */
export interface KeyAdded {
  application: Application;
  keyId: string;
}

/**
 * An account's applications and keys. Every method takes the account and
 * answers only about its own applications: another account's application
 * is `undefined`, exactly like one that does not exist.
 */
export interface DeveloperApplications {
  /** The account's applications, newest first. */
  listApplications(accountId: string): Promise<Application[]>;
  /**
   * Creates an application with its first key, in one transaction;
   * `name-taken` when the account has one of that name, `limit-reached` when
   * it already has `maxApplications` (concurrent creations for one account
   * are counted one after the other).
   */
  createApplication(
    accountId: string,
    application: NewApplication,
    key: NewKey,
    maxApplications: number,
  ): Promise<KeyAdded | 'name-taken' | 'limit-reached'>;
  /** Adds a key and revokes the application's other active keys, in one transaction. */
  rotateKey(accountId: string, applicationId: string, key: NewKey): Promise<KeyAdded | undefined>;
  /** Revokes one key (an already revoked one keeps its revocation time); undefined when the application or key is not the account's. */
  revokeKey(accountId: string, applicationId: string, keyId: string): Promise<Application | undefined>;
  /** Deletes an application and its keys, in one transaction; false when it is not the account's. */
  deleteApplication(accountId: string, applicationId: string): Promise<boolean>;
}

/** Active keys first, then revoked ones; each group newest first (ties by id, so the order is stable). */
const keyOrder = (a: ApiKeyRecord, b: ApiKeyRecord) =>
  Number(a.revokedAt !== null) - Number(b.revokedAt !== null) ||
  b.createdAt.localeCompare(a.createdAt) ||
  b.id.localeCompare(a.id);

/** The account's applications (all, or the one with `applicationId`), newest first, with their keys. */
async function readApplications(db: Executor, accountId: string, applicationId?: string): Promise<Application[]> {
  let query = db
    .selectFrom('api_applications')
    .select(['id', 'name', 'description', 'website_url', 'created_at'])
    .where('account_id', '=', accountId);
  if (applicationId !== undefined) query = query.where('id', '=', applicationId);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  if (!rows.length) return [];
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'application_id', 'display_prefix', 'created_at', 'last_used_at', 'revoked_at'])
    .where(
      'application_id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    websiteUrl: row.website_url,
    createdAt: row.created_at,
    keys: keys
      .filter((key) => key.application_id === row.id)
      .map((key) => ({
        id: key.id,
        displayPrefix: key.display_prefix,
        createdAt: key.created_at,
        lastUsedAt: key.last_used_at,
        revokedAt: key.revoked_at,
      }))
      .sort(keyOrder),
  }));
}

const readApplication = async (db: Executor, accountId: string, applicationId: string) =>
  (await readApplications(db, accountId, applicationId))[0];

/**
 * An account's applications and keys on a Kysely database, over the
 * profiles tables. Every query is scoped to the account, so another
 * account's application is never read or changed.
 */
export function kyselyDeveloperApplications(db: Kysely<AccountsTables>): DeveloperApplications {
  return {
    listApplications: (accountId) => readApplications(db, accountId),

    async createApplication(accountId, application, key, maxApplications) {
      try {
        return await db.transaction().execute(async (trx) => {
          // A no-op write on the account's row holds it (PostgreSQL) until the end, so concurrent
          // creations for one account count its applications one after the other.
          await trx
            .updateTable('accounts')
            .set((eb) => ({ email: eb.ref('email') }))
            .where('id', '=', accountId)
            .execute();
          const { n } = await trx
            .selectFrom('api_applications')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('account_id', '=', accountId)
            .executeTakeFirstOrThrow();
          if (Number(n) >= maxApplications) return 'limit-reached' as const;
          if (await applicationNamed(trx, accountId, application.name)) return 'name-taken' as const;
          const now = new Date().toISOString();
          const applicationId = await insertApplication(trx, accountId, application, now);
          const keyId = await insertApiKey(trx, applicationId, key, now);
          return { application: (await readApplication(trx, accountId, applicationId))!, keyId };
        });
      } catch (error) {
        // Two creations racing for one name: the unique (account, name) constraint decides.
        if (isUniqueViolation(error)) return 'name-taken';
        throw error;
      }
    },

    async rotateKey(accountId, applicationId, key) {
      return db.transaction().execute(async (trx) => {
        // Held, so rotations at once each revoke the key the one before added: else each revoked only the keys
        // its statement saw, and as many keys as rotations stayed active.
        if (!(await holdOwnApplication(trx, accountId, applicationId))) return undefined;
        const now = new Date().toISOString();
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: now })
          .where('application_id', '=', applicationId)
          .where('revoked_at', 'is', null)
          .execute();
        const keyId = await insertApiKey(trx, applicationId, key, now);
        return { application: (await readApplication(trx, accountId, applicationId))!, keyId };
      });
    },

    async revokeKey(accountId, applicationId, keyId) {
      return db.transaction().execute(async (trx) => {
        const key = await trx
          .selectFrom('api_keys')
          .innerJoin('api_applications', 'api_applications.id', 'api_keys.application_id')
          .select('api_keys.id')
          .where('api_keys.id', '=', keyId)
          .where('api_applications.id', '=', applicationId)
          .where('api_applications.account_id', '=', accountId)
          .executeTakeFirst();
        if (!key) return undefined;
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date().toISOString() })
          .where('id', '=', keyId)
          .where('revoked_at', 'is', null)
          .execute();
        return readApplication(trx, accountId, applicationId);
      });
    },

    async deleteApplication(accountId, applicationId) {
      return db.transaction().execute(async (trx) => {
        // Held first, as a rotation holds it before its keys: else each could wait on the other's rows.
        if (!(await holdOwnApplication(trx, accountId, applicationId))) return false;
        // Explicit rather than left to ON DELETE CASCADE: the keys must be gone whatever the backend's settings.
        await trx.deleteFrom('api_keys').where('application_id', '=', applicationId).execute();
        // Its OAuth grants go with it: the tokens it was given stop working (announced on the change bus by the dashboard).
        await deleteGrantsOf(trx, { clientId: applicationId });
        await trx.deleteFrom('api_applications').where('id', '=', applicationId).execute();
        return true;
      });
    },
  };
}
