import type { Kysely } from 'kysely';
import type { ProfilesDatabase } from '../tables.js';
import { SlugInUseError, type ProfileDirectory, type VerifiedAccountSearch } from '../../domain/profilesStore.js';
import { verifiedAccountRows } from './verifiedAccountRows.js';
import { ensureAccount } from '../../../../accounts/accounts.js';
import { fromProfileRow, profileColumns } from './profileRow.js';
import { prepared } from '../../../../platform/store/prepared.js';

const HASH_COLUMNS = { sha256: 'accounts.email_sha256', md5: 'accounts.email_md5' } as const;

/**
 * The `profiles` rows with their account's email hash and their avatar
 * image's digest, each read by a scalar subquery, not a join: on SQLite a
 * join that reads every column of the wide `profiles` row measured several
 * times the cost of reading the row alone, and the subqueries next to
 * nothing (docs/performance.md, where the workloads' time goes).
 */
function profileRows(db: Kysely<ProfilesDatabase>) {
  return db
    .selectFrom('profiles')
    .selectAll('profiles')
    .select((eb) => [
      eb
        .selectFrom('accounts')
        .select('accounts.email_sha256')
        .whereRef('accounts.id', '=', 'profiles.account_id')
        // Every profile has its account (the foreign key).
        .$asScalar()
        .$notNull()
        .as('email_sha256'),
      eb
        .selectFrom('profile_avatars')
        .select('profile_avatars.digest')
        .whereRef('profile_avatars.account_id', '=', 'profiles.account_id')
        .as('avatar_digest'),
    ]);
}

/** A profile by slug, and by either email hash: built and compiled once, not on every lookup. */
const profileBySlug = prepared((db: Kysely<ProfilesDatabase>, p: { value: string }) =>
  profileRows(db).where('profiles.slug', '=', p.value),
);
const profileByHash = {
  sha256: prepared((db: Kysely<ProfilesDatabase>, p: { value: string }) =>
    profileRows(db).where('profiles.account_id', '=', (eb) =>
      eb.selectFrom('accounts').select('accounts.id').where(HASH_COLUMNS.sha256, '=', p.value),
    ),
  ),
  md5: prepared((db: Kysely<ProfilesDatabase>, p: { value: string }) =>
    profileRows(db).where('profiles.account_id', '=', (eb) =>
      eb.selectFrom('accounts').select('accounts.id').where(HASH_COLUMNS.md5, '=', p.value),
    ),
  ),
};

/**
 * The two queries of a search by verified account: how many profiles match,
 * and the page of them (by slug), both finding the accounts through the
 * `profile_verified_accounts_username` index (username, service, account).
 * Exported for the test that reads their plans.
 */
export function verifiedAccountSearchQueries(db: Kysely<ProfilesDatabase>, search: VerifiedAccountSearch) {
  let accounts = db
    .selectFrom('profile_verified_accounts')
    .where('profile_verified_accounts.username', '=', search.username);
  if (search.service !== undefined)
    accounts = accounts.where('profile_verified_accounts.service_type', '=', search.service);
  const matching = accounts.select((eb) =>
    eb.fn.count<string | number>('profile_verified_accounts.account_id').distinct().as('count'),
  );
  const page = profileRows(db)
    .where('profiles.account_id', 'in', accounts.select('profile_verified_accounts.account_id'))
    .orderBy('profiles.slug')
    .limit(search.limit)
    .offset(search.offset);
  return { matching, page };
}

/** The profile directory on a Kysely database (SQLite or PostgreSQL); lookups of profiles and images read from `readDb`. */
export function kyselyProfileDirectory(
  db: Kysely<ProfilesDatabase>,
  readDb: Kysely<ProfilesDatabase> = db,
): ProfileDirectory {
  return {
    async findProfile(lookup) {
      if (lookup.by === 'nothing') return undefined;
      const query = lookup.by === 'slug' ? profileBySlug : profileByHash[lookup.by];
      const row = await query.executeTakeFirst(readDb, { value: lookup.value });
      return row && fromProfileRow(row);
    },

    async saveProfiles(profiles) {
      return db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        let created = 0;
        for (const [index, { email, profile, avatar }] of profiles.entries()) {
          const account = await ensureAccount(trx, email, now);
          const slugOwner = await trx
            .selectFrom('profiles')
            .select('account_id')
            .where('slug', '=', profile.slug)
            .executeTakeFirst();
          if (slugOwner && slugOwner.account_id !== account.id) throw new SlugInUseError(index, profile.slug);
          const existing = await trx
            .selectFrom('profiles')
            .select('account_id')
            .where('account_id', '=', account.id)
            .executeTakeFirst();
          const columns = profileColumns(profile, now);
          await trx
            .insertInto('profiles')
            .values({ account_id: account.id, ...columns })
            .onConflict((conflict) => conflict.column('account_id').doUpdateSet(columns))
            .execute();
          // A record replaces the whole profile: without an image, the old one goes.
          if (avatar) {
            const image = { image: avatar.bytes, digest: avatar.digest, updated_at: now };
            await trx
              .insertInto('profile_avatars')
              .values({ account_id: account.id, ...image })
              .onConflict((conflict) => conflict.column('account_id').doUpdateSet(image))
              .execute();
          } else {
            await trx.deleteFrom('profile_avatars').where('account_id', '=', account.id).execute();
          }
          await trx.deleteFrom('profile_verified_accounts').where('account_id', '=', account.id).execute();
          const indexed = verifiedAccountRows(account.id, profile.verifiedAccounts);
          if (indexed.length) await trx.insertInto('profile_verified_accounts').values(indexed).execute();
          if (!existing) created++;
        }
        return { created, updated: profiles.length - created };
      });
    },

    async readAvatarImage(digest) {
      const row = await readDb
        .selectFrom('profile_avatars')
        .select('image')
        .where('digest', '=', digest)
        .limit(1)
        .executeTakeFirst();
      return row && Buffer.from(row.image);
    },

    async searchByVerifiedAccount(search) {
      const { matching, page } = verifiedAccountSearchQueries(readDb, search);
      const [{ count }, rows] = await Promise.all([matching.executeTakeFirstOrThrow(), page.execute()]);
      // PostgreSQL answers count(…) as a string.
      return { profiles: rows.map(fromProfileRow), total: Number(count) };
    },

    async countProfiles() {
      const { count } = await db
        .selectFrom('profiles')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      // PostgreSQL answers count(*) as a string.
      return Number(count);
    },
  };
}
