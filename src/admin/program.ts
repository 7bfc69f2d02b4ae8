import { Command, CommanderError, type OutputConfiguration } from 'commander';
import type { Kysely } from 'kysely';
import { STORE_MODULES, type Database } from '../app.js';
import type { StoreModule } from '../platform/module.js';

/**
 * Runs the admin command line on `args` (what follows `npm run admin --`)
 * against the store `store` opens (and migrates) on first use; resolves
 * with the exit status. A failed command prints `error: <message>` on
 * stderr and gives 1; help and usage errors go where commander writes them
 * (`output`, default the process's stdout and stderr). Commands print their
 * results with `console.log`.
 */
export async function runAdmin(
  args: readonly string[],
  store: () => Promise<Kysely<Database>>,
  output: OutputConfiguration = {},
): Promise<number> {
  const program = new Command('admin')
    .description('Administer the profiles and publishing store (uses DATABASE_URL).')
    .showHelpAfterError()
    // Help and usage errors end this function, not the process, so the caller closes the store first.
    .exitOverride()
    .configureOutput(output);

  const db = program.command('db').description('Database maintenance.');
  db.command('migrate')
    .description('Apply pending migrations (the server also does this at start-up).')
    .action(async () => {
      await store();
      console.log('migrations applied');
    });

  for (const module of STORE_MODULES as readonly StoreModule<Database>[]) module.admin?.(program, store);

  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = `error: ${error instanceof Error ? error.message : String(error)}\n`;
    if (output.writeErr) output.writeErr(message);
    else process.stderr.write(message);
    return 1;
  }
}
