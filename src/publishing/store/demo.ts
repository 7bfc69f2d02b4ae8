import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../store/database.js';

/** Loads the publishing demo data when its tables are empty. */
export async function seedPublishingDemo(_db: Kysely<Database>, _config: Config): Promise<void> {}
