import { Command } from 'commander';
import { configFromEnv } from '../platform/config.js';
import { registerProfilesCommands } from '../services/profiles/admin.js';
import { registerPublishingCommands } from '../services/publishing/admin.js';
import { migrateToLatest, openDatabase, withStartupLock, type OpenDatabase } from '../platform/store/database.js';

/**
 * The admin command line: `npm run admin -- <command>`. It works on the store
 * named by DATABASE_URL (the same default as the server).
 */
const program = new Command('admin')
  .description('Administer the profiles and publishing store (uses DATABASE_URL).')
  .showHelpAfterError();

let opened: OpenDatabase | undefined;
/** Opens and migrates the store once, on first use by a command. */
async function adminStore() {
  if (!opened) {
    const config = configFromEnv();
    opened = openDatabase(config.databaseUrl, { timeoutMs: config.storeTimeoutMs, schema: config.databaseSchema });
    const database = opened;
    await withStartupLock(database, () => migrateToLatest(database));
  }
  return opened.db;
}

const db = program.command('db').description('Database maintenance.');
db.command('migrate')
  .description('Apply pending migrations (the server also does this at start-up).')
  .action(async () => {
    await adminStore();
    console.log('migrations applied');
  });

registerProfilesCommands(program, adminStore);
registerPublishingCommands(program, adminStore);

try {
  await program.parseAsync();
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await opened?.close();
}
