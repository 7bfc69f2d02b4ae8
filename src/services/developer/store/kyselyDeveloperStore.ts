import type { Kysely } from 'kysely';
import type { SiteDirectory } from '../../../platform/module.js';
import type { DeveloperDatabase } from './tables.js';
import type { DeveloperStore } from '../domain/developerStore.js';
import { kyselyDeveloperAccounts } from './kysely/accounts.js';
import { kyselyDeveloperApplications } from '../../../accounts/applications.js';
import { kyselyDeveloperOAuth } from './kysely/oauth.js';
import { kyselyDeveloperSessions } from './kysely/sessions.js';

/**
 * The developer dashboard's store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries;
 * the sites a person granted apps are named by the module that keeps them (`sites`).
 */
export function createKyselyDeveloperStore(db: Kysely<DeveloperDatabase>, sites: SiteDirectory): DeveloperStore {
  return {
    ...kyselyDeveloperAccounts(db),
    ...kyselyDeveloperSessions(db),
    ...kyselyDeveloperApplications(db),
    ...kyselyDeveloperOAuth(db, sites),
  };
}
