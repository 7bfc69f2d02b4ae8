import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { ProfilesDatabase } from './store/tables.js';
import { registerKeysCommands } from './admin/keysCommands.js';
import { registerProfilesImport } from './admin/profilesImport.js';
import { createKyselyProfilesStore } from './store/kyselyProfilesStore.js';

/** Adds the profiles admin commands (`profiles import`, `keys create|revoke|list`) to the admin command line. */
export function registerProfilesCommands(program: Command, store: () => Promise<Kysely<ProfilesDatabase>>): void {
  const profilesStore = async () => createKyselyProfilesStore(await store());
  registerProfilesImport(program, profilesStore);
  registerKeysCommands(program, profilesStore);
}
