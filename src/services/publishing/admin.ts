import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { PublishingDatabase } from './store/tables.js';
import { hashAccessToken, issueAccessToken } from './domain/accessTokens.js';
import { parseSiteRef } from './domain/siteRef.js';
import { revokeAccountGrants } from '../../accounts/oauth/grants.js';
import { createKyselyPublishingStore } from './store/kyselyPublishingStore.js';
import type { PublishingStore, TokenSelector } from './domain/publishingStore.js';

/** Revokes every OAuth grant of the account a publishing user belongs to; how many there were. */
async function revokeUserGrants(db: Kysely<PublishingDatabase>, login: string): Promise<number> {
  const user = await db.selectFrom('users').select('account_id').where('login', '=', login).executeTakeFirst();
  if (!user?.account_id) return 0;
  return revokeAccountGrants(db, user.account_id);
}

/** Parses `--post`: a positive integer. */
const postIdOption = (value: string) => {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new Error(`not a post ID: ${value}`);
  return Number(value);
};

async function userIdOf(store: PublishingStore, login: string): Promise<number> {
  const user = await store.findUserByLogin(login);
  if (!user) throw new Error(`no user with login "${login}"`);
  return user.id;
}

/**
 * Adds the publishing admin commands to the admin command line:
 * `tokens create|list|revoke` and `posts trash`.
 */
export function registerPublishingCommands(
  program: Command,
  openStore: () => Promise<Kysely<PublishingDatabase>>,
): void {
  const store = async (): Promise<PublishingStore> => createKyselyPublishingStore(await openStore());

  const tokens = program.command('tokens').description('Bearer tokens of the publishing API.');

  tokens
    .command('create')
    .description('Issue a token for a user; the token is printed once, alone on the last line.')
    .requiredOption('--user <login>', 'login of the user the token acts as')
    .action(async (options: { user: string }) => {
      const publishing = await store();
      const userId = await userIdOf(publishing, options.user);
      const issued = issueAccessToken();
      await publishing.createAccessToken({ id: issued.id, tokenHash: issued.tokenHash, userId, createdAt: new Date() });
      console.log(
        `token ${issued.id} created for ${options.user} (user ${userId}); only its hash is stored, so keep it now:`,
      );
      console.log(issued.token);
    });

  tokens
    .command('list')
    .description('List tokens (IDs, never the tokens themselves).')
    .option('--user <login>', 'only this user’s tokens')
    .action(async (options: { user?: string }) => {
      const publishing = await store();
      const userId = options.user === undefined ? undefined : await userIdOf(publishing, options.user);
      for (const token of await publishing.listAccessTokens(userId)) {
        console.log(
          [token.id, token.login, token.createdAt, token.revokedAt ? `revoked ${token.revokedAt}` : 'active'].join(
            '\t',
          ),
        );
      }
    });

  tokens
    .command('revoke')
    .description('Revoke tokens: one by its value or ID, or all of a user; revoked tokens get 401 invalid_token.')
    .addOption(program.createOption('--token <token>', 'the token itself').conflicts(['id', 'user']))
    .addOption(
      program.createOption('--id <id>', 'the token ID that `tokens create` and `tokens list` show').conflicts(['user']),
    )
    .addOption(
      program.createOption('--user <login>', 'every token of this user, and every app’s OAuth tokens of their account'),
    )
    .action(async (options: { token?: string; id?: string; user?: string }) => {
      const publishing = await store();
      let selector: TokenSelector;
      if (options.token !== undefined) selector = { tokenHash: hashAccessToken(options.token) };
      else if (options.id !== undefined) selector = { id: options.id };
      else if (options.user !== undefined) selector = { userId: await userIdOf(publishing, options.user) };
      else throw new Error('give --token, --id or --user');
      const revoked = await publishing.revokeAccessTokens(selector, new Date());
      // A revoked person: the apps they authorized lose their tokens too (within ACCESS_TOKEN_CACHE_MS on running servers).
      const grants = options.user !== undefined ? await revokeUserGrants(await openStore(), options.user) : 0;
      if (revoked === 0 && grants === 0) throw new Error('no active token matched');
      console.log(`${revoked} token${revoked === 1 ? '' : 's'} revoked`);
      if (grants) console.log(`${grants} app authorization${grants === 1 ? '' : 's'} revoked`);
    });

  const sites = program.command('sites').description('Sites of the publishing API and who has a role on them.');

  sites
    .command('grant')
    .description(
      'Give a user a role on a site (replacing the role they had there); a role the store knows: administrator, editor, author, contributor, subscriber, or a custom one.',
    )
    .requiredOption('--site <site>', 'site ID, domain, or domain::path')
    .addOption(program.createOption('--user <login>', 'the user’s login').conflicts(['email']))
    .addOption(
      program.createOption('--email <address>', 'the email address of the account whose publishing user it is'),
    )
    .requiredOption('--role <role>', 'the role')
    .action(async (options: { site: string; user?: string; email?: string; role: string }) => {
      const db = await openStore();
      const publishing = await store();
      const site = await publishing.findSite(parseSiteRef(options.site));
      if (!site) throw new Error(`no site "${options.site}"`);
      const known = await db
        .selectFrom('role_capabilities')
        .select('role')
        .where('role', '=', options.role)
        .limit(1)
        .executeTakeFirst();
      if (!known) throw new Error(`no role "${options.role}"`);
      let user: { id: number; login: string } | undefined;
      if (options.user !== undefined) {
        user = await db
          .selectFrom('users')
          .select(['id', 'login'])
          .where('login', '=', options.user)
          .executeTakeFirst();
        if (!user) throw new Error(`no user with login "${options.user}"`);
      } else if (options.email !== undefined) {
        const email = options.email.trim().toLowerCase();
        user = await db
          .selectFrom('users')
          .innerJoin('accounts', 'accounts.id', 'users.account_id')
          .select(['users.id', 'users.login'])
          .where('accounts.email', '=', email)
          .executeTakeFirst();
        if (!user)
          throw new Error(`no publishing user for ${email} (an account gets one at its first dashboard log-in)`);
      } else throw new Error('give --user or --email');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('site_roles').where('site_id', '=', site.id).where('user_id', '=', user.id).execute();
        await trx.insertInto('site_roles').values({ site_id: site.id, user_id: user.id, role: options.role }).execute();
      });
      console.log(`${user.login} (user ${user.id}) is ${options.role} on site ${site.id}`);
    });

  const posts = program.command('posts').description('Posts and pages of the publishing API.');

  posts
    .command('trash')
    .description(
      'Move a post to the trash as the platform does: its status, the time and its slug are remembered, the slug gets "__trashed".',
    )
    .requiredOption('--site <site>', 'site ID, domain, or domain::path')
    .requiredOption('--post <ID>', 'post ID', postIdOption)
    .action(async (options: { site: string; post: number }) => {
      const publishing = await store();
      const site = await publishing.findSite(parseSiteRef(options.site));
      if (!site) throw new Error(`no site "${options.site}"`);
      const post = await publishing.findPost(site.id, options.post);
      if (!post) throw new Error(`no post ${options.post} on site ${site.id}`);
      if (await publishing.trashPost(post.id, new Date())) {
        console.log(`post ${post.id} moved to the trash (was ${post.status})`);
      } else {
        console.log(`post ${post.id} is already in the trash`);
      }
    });
}
