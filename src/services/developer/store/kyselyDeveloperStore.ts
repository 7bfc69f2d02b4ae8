import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/store/database.js';
import type { DeveloperStore } from './developerStore.js';
import { kyselyDeveloperAccounts } from './kysely/accounts.js';
import { kyselyDeveloperApplications } from './kysely/applications.js';
import { kyselyDeveloperSessions } from './kysely/sessions.js';

/** The developer dashboard's store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries. */
export function createKyselyDeveloperStore(db: Kysely<Database>): DeveloperStore {
  return { ...kyselyDeveloperAccounts(db), ...kyselyDeveloperSessions(db), ...kyselyDeveloperApplications(db) };
}
