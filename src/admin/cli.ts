import { configFromEnv, openMigratedStore, type Database } from '../app.js';
import type { OpenDatabase } from '../platform/store/database.js';
import { runAdmin } from './program.js';

/**
 * The admin command line: `npm run admin -- <command>`. It works on the store
 * named by DATABASE_URL (the same default as the server).
 */
let opened: Promise<OpenDatabase<Database>> | undefined;
try {
  process.exitCode = await runAdmin(process.argv.slice(2), async () => {
    // Opened and migrated once, on first use by a command.
    opened ??= openMigratedStore(configFromEnv());
    return (await opened).db;
  });
} finally {
  await (await opened?.catch(() => undefined))?.close();
}
