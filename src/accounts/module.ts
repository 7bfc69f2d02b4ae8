import type { StoreModule } from '../platform/module.js';
import { accountsMigrations } from './migrations.js';
import type { AccountsTables } from './tables.js';

/**
 * The accounts: who may use the APIs, their applications and API keys. No
 * service of its own; its tables are migrated before every service's.
 */
export const accountsModule: StoreModule<AccountsTables> = {
  name: 'accounts',
  migrations: accountsMigrations,
};
