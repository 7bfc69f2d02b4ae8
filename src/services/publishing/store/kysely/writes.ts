import type { Insertable, Updateable } from 'kysely';
import type { KeptUnderMark } from '../../keptUnderMark.js';
import { preparedIn } from '../../../../platform/store/prepared.js';
import { retryingTaken } from '../transactions.js';
import { slugMustBeUnique } from '../trashRules.js';
import type { PostWrites } from '../../domain/publishingStore.js';
import type { PostsTable, PublishingTables } from '../tables.js';
import { isStorableId, nextFreeId, takeTurns, writersOverlap, type Db } from './db.js';
import { freeSlug, holdSite } from './trash.js';

/** How many times a write runs again when a concurrent one took the ID, revision ID or slug it chose. */
const MAX_ATTEMPTS = 20;

/**
 * The references a post's write names, resolved within the post's site: a
 * featured image that is no attachment of the site, or a parent that is no
 * post of the site (nor the post itself), is none (null). The flows check
 * them first and answer the caller; this is where no path can skip it.
 */
async function inSite<T extends { featured_media_id?: number | null; parent_id?: number | null }>(
  db: Db,
  siteId: number,
  postId: number,
  columns: T,
): Promise<T> {
  const resolved = { ...columns };
  const featured = columns.featured_media_id;
  if (featured !== undefined && featured !== null) {
    const found =
      isStorableId(featured) &&
      (await db
        .selectFrom('attachments')
        .select('id')
        .where('id', '=', featured)
        .where('site_id', '=', siteId)
        .executeTakeFirst());
    if (!found) resolved.featured_media_id = null;
  }
  const parent = columns.parent_id;
  if (parent !== undefined && parent !== null) {
    const found =
      isStorableId(parent) &&
      parent !== postId &&
      (await db
        .selectFrom('posts')
        .select('id')
        .where('id', '=', parent)
        .where('site_id', '=', siteId)
        .executeTakeFirst());
    if (!found) resolved.parent_id = null;
  }
  return resolved;
}

/** The date of the earliest scheduled post of a site among some types (one statement per size of the list of types). */
const earliestScheduled = preparedIn<PublishingTables, { first: string | null }, string>((db, types, p) =>
  db
    .selectFrom('posts')
    .select((eb) => eb.fn.min<string | null>('date').as('first'))
    .where('site_id', '=', p.siteId as number)
    .where('type', 'in', types)
    .where('status', '=', 'future'),
);

/**
 * Writing posts on a Kysely database (SQLite or PostgreSQL): each write in
 * one transaction (or in the request's, see `inTransaction`). With
 * `schedules`, the earliest scheduled date per site and types is kept under
 * the change mark the caller hands `hasDuePosts`: while the mark holds no
 * post changed, so no post is due before it (every list and count asks).
 */
export function kyselyPostWrites(db: Db, schedules?: KeptUnderMark<{ first: string | null }>): PostWrites {
  return {
    createPost(post, guidOf) {
      return retryingTaken(
        db,
        async (trx) => {
          const id = await nextFreeId(trx, 'posts');
          const columns = await inSite(trx, post.site_id, id, post);
          const scope = { site_id: post.site_id, type: post.type, parent_id: columns.parent_id ?? null };
          const slug = slugMustBeUnique(post.status, post.slug) ? await freeSlug(trx, id, scope, post.slug) : post.slug;
          const row: Insertable<PostsTable> = { ...columns, id, slug, guid: guidOf(id) };
          await trx.insertInto('posts').values(row).execute();
          return id;
        },
        MAX_ATTEMPTS,
      );
    },

    holdCreatesBy(siteId, authorId) {
      return takeTurns(db, `publishing.createsBy:${siteId}:${authorId}`);
    },

    async holdPost(postId) {
      if (!writersOverlap(db, 'holdPost') || !isStorableId(postId)) return;
      const post = await db.selectFrom('posts').select('site_id').where('id', '=', postId).executeTakeFirst();
      if (!post) return;
      // Its site's row first, as a write needing a free slug holds it before writing the post (`holdSite`).
      await holdSite(db, post.site_id);
      await db.selectFrom('posts').select('id').where('id', '=', postId).forUpdate().execute();
    },

    updatePost(postId, changes, revision) {
      if (!isStorableId(postId)) return Promise.resolve(false);
      return retryingTaken(
        db,
        async (trx) => {
          const current = await trx.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
          if (!current) return false;
          const update: Updateable<PostsTable> = await inSite(trx, current.site_id, postId, changes);
          const next = { ...current, ...update };
          if (slugMustBeUnique(next.status, next.slug)) {
            update.slug = await freeSlug(
              trx,
              postId,
              { site_id: next.site_id, type: next.type, parent_id: next.parent_id },
              next.slug,
            );
          }
          await trx.updateTable('posts').set(update).where('id', '=', postId).execute();
          const id = await nextFreeId(trx, 'revisions');
          await trx
            .insertInto('revisions')
            .values({
              id,
              post_id: postId,
              author_id: revision.authorId,
              date: revision.at,
              title: next.title,
              content: next.content,
              excerpt: next.excerpt,
            })
            .execute();
          return true;
        },
        MAX_ATTEMPTS,
      );
    },

    async publishDuePosts(siteId, at) {
      const result = await db
        .updateTable('posts')
        .set({ status: 'publish' })
        .where('site_id', '=', siteId)
        .where('status', '=', 'future')
        .where('date', '<=', at.toISOString())
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async hasDuePosts(siteId, types, at, mark) {
      const key = `${siteId}\u0000${types.join('\u0000')}`;
      let known = mark === undefined ? undefined : schedules?.find(mark, key);
      if (!known) {
        const [row] = await earliestScheduled(db, types, { siteId });
        known = { first: row?.first ?? null };
        if (mark !== undefined) schedules?.keep(mark, key, known);
      }
      return known.first !== null && Date.parse(known.first) <= at.getTime();
    },
  };
}
