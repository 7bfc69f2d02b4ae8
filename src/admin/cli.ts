import { Command } from 'commander';
import { openMigratedStore, STORE_MODULES, type Database } from '../app.js';
import { configFromEnv } from '../platform/config.js';
import type { StoreModule } from '../platform/module.js';
import type { OpenDatabase } from '../platform/store/database.js';

/**
 * The admin command line: `npm run admin -- <command>`. It works on the store
 * named by DATABASE_URL (the same default as the server).
 */
const program = new Command('admin')
  .description('Administer the profiles and publishing store (uses DATABASE_URL).')
  .showHelpAfterError();

let opened: Promise<OpenDatabase<Database>> | undefined;
/** Opens and migrates the store once, on first use by a command. */
async function adminStore() {
  opened ??= openMigratedStore(configFromEnv());
  return (await opened).db;
}

const db = program.command('db').description('Database maintenance.');
db.command('migrate')
  .description('Apply pending migrations (the server also does this at start-up).')
  .action(async () => {
    await adminStore();
    console.log('migrations applied');
  });

for (const module of STORE_MODULES as readonly StoreModule<Database>[]) module.admin?.(program, adminStore);

try {
  await program.parseAsync();
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await (await opened?.catch(() => undefined))?.close();
}
