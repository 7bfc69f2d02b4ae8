import type { Kysely } from 'kysely';
import type { ProfilesDatabase } from './tables.js';
import { kyselyApiKeyRegistry } from '../../../accounts/apiKeys.js';
import { accountsOf } from '../../../accounts/tables.js';
import { kyselyProfileDirectory } from './kysely/profileDirectory.js';
import type { ProfilesStore } from './profilesStore.js';

/** The profiles store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries. */
export function createKyselyProfilesStore(db: Kysely<ProfilesDatabase>): ProfilesStore {
  return { ...kyselyProfileDirectory(db), ...kyselyApiKeyRegistry(accountsOf(db)) };
}
