import type { Kysely } from 'kysely';
import type { ProfilesDatabase } from './tables.js';
import { kyselyApiKeyRegistry } from '../../../accounts/apiKeys.js';
import { kyselyProfileDirectory } from './kysely/profileDirectory.js';
import type { ProfilesStore } from '../domain/profilesStore.js';

/**
 * The profiles store on the shared Kysely database: embedded SQLite or
 * PostgreSQL, same queries. Profile and avatar lookups read from `readDb`
 * (a read replica, when there is one); keys and writes use `db`.
 */
export function createKyselyProfilesStore(
  db: Kysely<ProfilesDatabase>,
  readDb: Kysely<ProfilesDatabase> = db,
): ProfilesStore {
  return { ...kyselyProfileDirectory(db, readDb), ...kyselyApiKeyRegistry(db) };
}
