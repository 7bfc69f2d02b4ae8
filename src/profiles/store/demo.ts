import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../store/database.js';

/** Loads the profiles demo data when its tables are empty. */
export async function seedProfilesDemo(_db: Kysely<Database>, _config: Config): Promise<void> {}
