import type { Kysely } from 'kysely';
import type { DeveloperDatabase } from './tables.js';
import type { DeveloperStore } from '../domain/developerStore.js';
import { kyselyDeveloperAccounts } from './kysely/accounts.js';
import { kyselyDeveloperApplications } from '../../../accounts/applications.js';
import { accountsOf } from '../../../accounts/tables.js';
import { kyselyDeveloperOAuth } from './kysely/oauth.js';
import { kyselyDeveloperSessions } from './kysely/sessions.js';

/** The developer dashboard's store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries. */
export function createKyselyDeveloperStore(db: Kysely<DeveloperDatabase>): DeveloperStore {
  return {
    ...kyselyDeveloperAccounts(db),
    ...kyselyDeveloperSessions(db),
    ...kyselyDeveloperApplications(accountsOf(db)),
    ...kyselyDeveloperOAuth(accountsOf(db)),
  };
}
