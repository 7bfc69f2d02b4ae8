import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/store/database.js';
import { kyselyApiKeyRegistry } from './kysely/apiKeyRegistry.js';
import { kyselyProfileDirectory } from './kysely/profileDirectory.js';
import type { ProfilesStore } from './profilesStore.js';

/** The profiles store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries. */
export function createKyselyProfilesStore(db: Kysely<Database>): ProfilesStore {
  return { ...kyselyProfileDirectory(db), ...kyselyApiKeyRegistry(db) };
}
