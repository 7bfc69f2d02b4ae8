import type { Command } from 'commander';
import { issueApiKey } from '../../../accounts/apiKey.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { ProfilesStore } from '../domain/profilesStore.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailOption(value: string): string {
  if (!EMAIL.test(value.trim())) throw new Error(`--email must be an email address, got "${value}"`);
  return normalizeEmail(value);
}

function websiteOption(value: string): string {
  if (value === '' || (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))) return value;
  throw new Error(`--website must be an http(s) URL, got "${value}"`);
}

/**
 * `keys create|revoke|list`: API keys of developer applications. A key is
 * random (256 bits), printed once, and stored only as its SHA-256 hash.
 */
export function registerKeysCommands(program: Command, store: () => Promise<ProfilesStore>): void {
  const keys = program.command('keys').description('API keys of developer applications.');

  keys
    .command('create')
    .description(
      'Create (or reuse) the account and the application, and issue a new key. The key is the last line of the output.',
    )
    .requiredOption('--email <email>', "the account's primary email")
    .requiredOption('--app <name>', 'application name (reused when the account already has one by that name)')
    .option('--description <text>', 'application description (for a new application)', '')
    .option('--website <url>', 'application website URL (for a new application)', '')
    .action(async (options: { email: string; app: string; description: string; website: string }) => {
      const email = emailOption(options.email);
      const name = options.app.trim();
      if (!name) throw new Error('--app must not be empty');
      const issued = issueApiKey();
      const created = await (await store()).createApiKey({
        email,
        application: { name, description: options.description, websiteUrl: websiteOption(options.website) },
        key: { hash: issued.hash, displayPrefix: issued.displayPrefix },
      });
      console.log(`account ${email}: ${created.accountCreated ? 'created' : 'existing'}`);
      console.log(
        `application "${name}" (${created.applicationId}): ${created.applicationCreated ? 'created' : 'existing'}`,
      );
      console.log(`key ${created.keyId}, listed as ${issued.displayPrefix}…`);
      console.log('Keep the key below secret: only its hash is stored, so it cannot be shown again.');
      console.log(issued.key);
    });

  keys
    .command('revoke')
    .description('Revoke a key; it stops working at once.')
    .argument('<keyId>', 'the key id (from keys create or keys list)')
    .action(async (keyId: string) => {
      const outcome = await (await store()).revokeApiKey(keyId);
      if (outcome === 'unknown') throw new Error(`no key with id ${keyId}`);
      console.log(outcome === 'revoked' ? `key ${keyId} revoked` : `key ${keyId} was already revoked`);
    });

  keys
    .command('list')
    .description("List the keys of an account's applications (never the keys themselves).")
    .requiredOption('--email <email>', "the account's primary email")
    .action(async (options: { email: string }) => {
      const email = emailOption(options.email);
      const listed = await (await store()).listApiKeys(email);
      if (!listed) throw new Error(`no account with email ${email}`);
      console.log(['KEY ID', 'APPLICATION', 'PREFIX', 'CREATED', 'LAST USED', 'STATUS'].join('\t'));
      for (const key of listed) {
        const status = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
        console.log(
          [key.id, key.application, `${key.displayPrefix}…`, key.createdAt, key.lastUsedAt ?? 'never', status].join(
            '\t',
          ),
        );
      }
    });
}
