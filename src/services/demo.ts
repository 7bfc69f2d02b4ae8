import type { Kysely } from 'kysely';
import type { Config } from '../platform/config.js';
import { seedProfilesDemo } from './profiles/store/demo.js';
import { seedPublishingDemo } from './publishing/store/demo.js';
import type { Database } from '../platform/store/database.js';

/** Loads each service's demo data into its tables when they are empty (see the README). */
export async function seedDemoData(db: Kysely<Database>, config: Config): Promise<void> {
  await seedProfilesDemo(db, config);
  await seedPublishingDemo(db, config);
}
