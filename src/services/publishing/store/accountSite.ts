import type { Kysely } from 'kysely';
import { emailHashes } from '../../../accounts/email.js';
import type { PlatformConfig } from '../../../platform/config.js';
import { isUniqueViolation } from '../../../platform/store/uniqueViolation.js';
import type { PublishingTables } from './tables.js';
import { nextFreeId, takeTurns } from './kysely/db.js';

/** Where a new account's site lives: `<login>.sites.example.com` (docs/decisions/site-with-the-account.md). */
export const ACCOUNT_SITES_DOMAIN = 'sites.example.com';

/** Tries of the whole transaction when another one took the same IDs, login or domain first. */
const ATTEMPTS = 5;

/** A login from an address's local part: lower-case letters and digits, 4 to 30 of them (the platform's user names). */
function loginBase(email: string): string {
  const local = email
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return (local.length >= 4 ? local : `${local}user`).slice(0, 30);
}

/**
 * What a person gets with their account, as on the real platform, where a
 * sign-up creates a site: a publishing user (linked to the account) and, when
 * that user has a role on no site, a site of their own that they administer,
 * `<login>.sites.example.com`. Does nothing for an account whose user has a
 * site (the demo people, anyone an operator gave a role). Safe to repeat and
 * to race: logins and IDs are taken one write at a time, and a transaction
 * that loses a race for the account's own user or site starts again.
 */
export async function ensureAccountSite(
  db: Kysely<PublishingTables>,
  account: { id: string; email: string },
  config: PlatformConfig,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        let user = await trx
          .selectFrom('users')
          .select(['id', 'login'])
          .where('account_id', '=', account.id)
          .executeTakeFirst();
        if (
          user &&
          (await trx
            .selectFrom('site_roles')
            .select('site_id')
            .where('user_id', '=', user.id)
            .limit(1)
            .executeTakeFirst())
        )
          return;
        if (!user) {
          // New users are named one write at a time (before their IDs: see nextFreeId), so each reads the logins the one
          // before it committed: else people whose addresses make one login, logging in for the first time at once,
          // all pick the same one, and all but one lose every try.
          await takeTurns(trx, 'publishing.logins');
          const login = await freeLogin(trx, loginBase(account.email));
          const id = await nextFreeId(trx, 'users');
          const name = account.email.split('@')[0]!;
          await trx
            .insertInto('users')
            .values({
              id,
              login,
              email: account.email,
              display_name: name,
              first_name: '',
              last_name: '',
              nice_name: login,
              url: '',
              avatar_url: `${config.publicUrl}/avatar/${emailHashes(account.email).sha256}`,
              account_id: account.id,
            })
            .execute();
          user = { id, login };
        }
        const siteId = await nextFreeId(trx, 'sites');
        await trx
          .insertInto('sites')
          .values({
            id: siteId,
            domain: `${user.login}.${ACCOUNT_SITES_DOMAIN}`,
            path: '',
            name: `${user.login}’s site`,
            description: '',
            lang: 'en',
            is_private: 0,
            extra_post_types: '[]',
          })
          .execute();
        await trx
          .insertInto('site_roles')
          .values({ site_id: siteId, user_id: user.id, role: 'administrator' })
          .execute();
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

/** `base`, or `base2`, `base3`, … : the first that is neither a user's login nor the name of a site of this domain. */
async function freeLogin(db: Kysely<PublishingTables>, base: string): Promise<string> {
  const taken = new Set(
    [
      ...(await db.selectFrom('users').select('login as name').where('login', 'like', `${base}%`).execute()),
      ...(await db
        .selectFrom('sites')
        .select('domain as name')
        .where('domain', 'like', `${base}%.${ACCOUNT_SITES_DOMAIN}`)
        .execute()),
    ].map((row) => row.name.replace(`.${ACCOUNT_SITES_DOMAIN}`, '')),
  );
  for (let n = 1; ; n++) {
    const login = n === 1 ? base : `${base}${n}`;
    if (!taken.has(login)) return login;
  }
}
