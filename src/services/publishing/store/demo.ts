import type { Kysely } from 'kysely';
import type { PlatformConfig } from '../../../platform/config.js';
import type { PublishingDatabase } from './tables.js';
import * as demo from './demoData.js';
import { linkUsersToAccounts } from './accountLinks.js';
import { demoMediaFiles, insertDemoMediaFiles, putDemoMediaFiles, servedUrls } from './demoMedia.js';
import type { PublishingConfig } from '../settings.js';

/** Loads the publishing demo data (see docs/publishing.md) in one transaction when there is no site yet. */
export async function seedPublishingDemo(
  db: Kysely<PublishingDatabase>,
  config: PlatformConfig & PublishingConfig,
): Promise<void> {
  const anySite = await db.selectFrom('sites').select('id').limit(1).executeTakeFirst();
  if (anySite) return;
  // The demo's pictures, PDF and sound, in this deployment's media storage; the posts name them where it serves them.
  const { media } = config.publishing;
  const { attachments, files, urls } = await demoMediaFiles(demo.attachments, media);
  await putDemoMediaFiles(files, media.storage);
  const posts = demo.posts.map((row) => ({ ...row, content: servedUrls(row.content, urls) }));
  const revisions = demo.revisions.map((row) => ({ ...row, content: servedUrls(row.content, urls) }));
  await db.transaction().execute(async (trx) => {
    // Parents before children, for the foreign keys.
    await trx.insertInto('sites').values(demo.sites).execute();
    await trx.insertInto('users').values(demo.users).execute();
    await trx.insertInto('site_roles').values(demo.siteRoles).execute();
    await trx.insertInto('role_capabilities').values(demo.customRoleCapabilities).execute();
    await trx.insertInto('site_followers').values(demo.siteFollowers).execute();
    await trx.insertInto('posts').values(posts).execute();
    await trx.insertInto('trash_meta').values(demo.trashMeta).execute();
    await trx.insertInto('terms').values(demo.terms).execute();
    await trx.insertInto('post_terms').values(demo.postTerms).execute();
    await trx.insertInto('attachments').values(attachments).execute();
    await insertDemoMediaFiles(trx, attachments);
    await trx.insertInto('post_meta').values(demo.postMeta).execute();
    await trx.insertInto('likes').values(demo.likes).execute();
    await trx.insertInto('comments').values(demo.comments).execute();
    await trx.insertInto('revisions').values(revisions).execute();
    // One account per person: the demo users are accounts too (alex's profile account, if the address matches).
    await linkUsersToAccounts(trx, new Date().toISOString());
  });
}
