import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import { findAccountId } from '../../accounts/accounts.js';
import { normalizeEmail } from '../../accounts/email.js';
import { hashPassword } from './domain/password.js';
import { passwordWeakness } from './domain/passwordPolicy.js';
import { developerSettingsFromEnv } from './settings.js';
import { setAccountPassword } from './store/passwords.js';
import type { DeveloperDatabase } from './store/tables.js';

/** Reads all of stdin, without its final line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * Adds the dashboard's admin commands to the admin command line:
 * `accounts password` sets an account's dashboard password.
 */
export function registerDeveloperCommands(program: Command, openStore: () => Promise<Kysely<DeveloperDatabase>>): void {
  const accounts = program.command('accounts').description('Accounts of the developer dashboard.');

  accounts
    .command('password')
    .description(
      'Set the dashboard password of an account (one without a password gets one, its address counted as verified); ' +
        'every session of the account ends. Without --password-stdin a random password is made and printed once, alone on the last line.',
    )
    .requiredOption('--email <address>', 'the account’s email address')
    .option('--password-stdin', 'read the new password from stdin (checked as at sign-up)')
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const db = await openStore();
      const email = normalizeEmail(options.email);
      const accountId = await findAccountId(db, email);
      if (!accountId) throw new Error(`no account with the address ${email}`);
      const password = options.passwordStdin ? await readStdin() : randomBytes(18).toString('base64url');
      if (options.passwordStdin) {
        const weakness = await passwordWeakness(password, email);
        if (weakness) throw new Error(`password refused: ${weakness}`);
      }
      const cost = developerSettingsFromEnv(process.env).developer.passwordCost;
      await setAccountPassword(db, accountId, await hashPassword(password, cost), new Date().toISOString());
      console.log(`password set for ${email} (account ${accountId}); its sessions ended`);
      if (!options.passwordStdin) console.log(password);
    });
}
