import { prepared } from '../../../../platform/store/prepared.js';
import { atomically, retryingTaken } from '../transactions.js';
import {
  desiredSlugOnRestore,
  slugMustBeUnique,
  STATUS_WITHOUT_TRASH_MEMORY,
  trashedSlug,
  uniqueSlug,
} from '../trashRules.js';
import type { PostTrash } from '../../domain/publishingStore.js';
import { storedTime } from '../../domain/dates.js';
import type { RestoredPost } from '../../domain/records.js';
import { isStorableId, writersOverlap, type Db } from './db.js';

/** How many times a restore looks again for a free slug that concurrent restores keep taking. */
const MAX_SLUG_ATTEMPTS = 20;

/* The queries of trashing and restoring a post, built and compiled once (see `prepared`): building them is a
 * large share of a restore's CPU. Queries whose shape depends on the request stay built per call. */
const queries = {
  statusAndSlug: prepared((db: Db, p: { postId: number }) =>
    db.selectFrom('posts').select(['status', 'slug']).where('id', '=', p.postId),
  ),
  moveToTrash: prepared((db: Db, p: { postId: number; slug: string; modified: string; status: string }) =>
    db
      .updateTable('posts')
      .set({ status: 'trash', slug: p.slug, modified: p.modified })
      .where('id', '=', p.postId)
      .where('status', '=', p.status),
  ),
  forgetTrash: prepared((db: Db, p: { postId: number }) => db.deleteFrom('trash_meta').where('post_id', '=', p.postId)),
  rememberTrash: prepared(
    (db: Db, p: { postId: number; previousStatus: string; trashedAt: string; originalSlug: string }) =>
      db.insertInto('trash_meta').values({
        post_id: p.postId,
        previous_status: p.previousStatus,
        trashed_at: p.trashedAt,
        original_slug: p.originalSlug,
      }),
  ),
  trashComments: prepared((db: Db, p: { postId: number }) =>
    db
      .updateTable('comments')
      .set((eb) => ({ status_before_trash: eb.ref('status'), status: 'post-trashed' }))
      .where('post_id', '=', p.postId)
      .where('status', '!=', 'post-trashed'),
  ),
  trashedPost: prepared((db: Db, p: { postId: number }) =>
    db
      .selectFrom('posts')
      .leftJoin('trash_meta', 'trash_meta.post_id', 'posts.id')
      .select([
        'posts.site_id',
        'posts.type',
        'posts.parent_id',
        'posts.status',
        'posts.slug',
        'trash_meta.previous_status',
        'trash_meta.original_slug',
      ])
      .where('posts.id', '=', p.postId),
  ),
  holdSite: prepared((db: Db, p: { siteId: number }) =>
    db
      .updateTable('sites')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', p.siteId),
  ),
  takeOutOfTrash: prepared((db: Db, p: { postId: number; status: string; slug: string; modified: string }) =>
    db
      .updateTable('posts')
      .set({ status: p.status, slug: p.slug, modified: p.modified })
      .where('id', '=', p.postId)
      .where('status', '=', 'trash'),
  ),
  restoreComments: prepared((db: Db, p: { postId: number }) =>
    db
      .updateTable('comments')
      .set((eb) => ({ status: eb.fn.coalesce('status_before_trash', eb.val('unapproved')), status_before_trash: null }))
      .where('post_id', '=', p.postId)
      .where('status', '=', 'post-trashed'),
  ),
  /** Whether another post of the site and type (not a page) holds a slug. */
  slugTaken: prepared((db: Db, p: { siteId: number; type: string; postId: number; slug: string }) =>
    db
      .selectFrom('posts')
      .select('slug')
      .where('site_id', '=', p.siteId)
      .where('type', '=', p.type)
      .where('id', '!=', p.postId)
      .where('slug', '=', p.slug)
      .limit(1),
  ),
};

/**
 * Holds the site's row until the write ends (a no-op write; PostgreSQL). A
 * write that holds a post's row holds its site's first, so that writes
 * needing a free slug (which hold the site, then write a post) and writes
 * holding a post never wait on each other in a circle.
 */
export async function holdSite(db: Db, siteId: number): Promise<void> {
  await queries.holdSite.executeChanges(db, { siteId });
}

/** The site, type and parent a post's slug must be unique among. */
type SlugScope = { site_id: number; type: string; parent_id: number | null };

/** The desired slug, or the first free `-N` variant among the site's posts of the type (pages: same parent). */
export async function freeSlug(db: Db, postId: number, post: SlugScope, desired: string): Promise<string> {
  // In a write, a no-op write on the site's row holds it (PostgreSQL) until the end: writers that need a
  // free slug on one site take turns, so each reads the slugs the one before it committed; else a crowd
  // giving posts one slug all find it free, all but one collide, and one could lose every retry.
  // SQLite's writers take turns anyway. Outside a write (a suggestion) nothing is held.
  if (db.isTransaction && writersOverlap(db, 'freeSlug')) await holdSite(db, post.site_id);
  const others = () => {
    const query = db
      .selectFrom('posts')
      .select('slug')
      .where('site_id', '=', post.site_id)
      .where('type', '=', post.type)
      .where('id', '!=', postId);
    if (post.type !== 'page') return query;
    return post.parent_id === null
      ? query.where('parent_id', 'is', null)
      : query.where('parent_id', '=', post.parent_id);
  };
  // Mostly the slug is free (a trashed post held it under another name): one lookup in the
  // (site, type, slug) index answers that. Only a taken slug reads the numbered ones, as the
  // platform's `wp_unique_post_slug` tries `-2`, `-3`, …; that prefix match scans the site's posts.
  const holder =
    post.type === 'page'
      ? await others().where('slug', '=', desired).limit(1).executeTakeFirst()
      : await queries.slugTaken.executeTakeFirst(db, { siteId: post.site_id, type: post.type, postId, slug: desired });
  if (!holder) return desired;
  const taken = await others().where('slug', 'like', `${desired}-%`).execute();
  return uniqueSlug(desired, new Set([desired, ...taken.map((row) => row.slug)]));
}

/** Trashing, restoring and deleting posts on a Kysely database (SQLite or PostgreSQL), each in one transaction. */
export function kyselyPostTrash(db: Db): PostTrash {
  const restoreOnce = async (trx: Db, postId: number, at: Date): Promise<RestoredPost | undefined> => {
    const post = await queries.trashedPost.executeTakeFirst(trx, { postId });
    if (post?.status !== 'trash') return undefined;
    const status = post.previous_status ?? STATUS_WITHOUT_TRASH_MEMORY;
    const desired = desiredSlugOnRestore(post.slug, post.original_slug ?? undefined);
    let slug = desired;
    // Restores that need a free slug on one site take turns (see `freeSlug`).
    if (slugMustBeUnique(status, desired)) slug = await freeSlug(trx, postId, post, desired);
    // The conditional update decides which of concurrent restores makes the transition.
    const modified = storedTime(at);
    const restored = await queries.takeOutOfTrash.executeChanges(trx, { postId, status, slug, modified });
    if (restored !== 1) return undefined;
    await queries.forgetTrash.executeChanges(trx, { postId });
    await queries.restoreComments.executeChanges(trx, { postId });
    return { status, slug, modified };
  };

  return {
    async trashPost(postId, at) {
      if (!isStorableId(postId)) return false;
      return atomically(db, async (trx) => {
        const post = await queries.statusAndSlug.executeTakeFirst(trx, { postId });
        if (!post || post.status === 'trash') return false;
        // Compare-and-set on the status read above: of concurrent calls, one moves the post.
        const moved = await queries.moveToTrash.executeChanges(trx, {
          postId,
          slug: trashedSlug(post.slug),
          modified: storedTime(at),
          status: post.status,
        });
        if (moved !== 1) return false;
        await queries.forgetTrash.executeChanges(trx, { postId });
        await queries.rememberTrash.executeChanges(trx, {
          postId,
          previousStatus: post.status,
          trashedAt: storedTime(at),
          originalSlug: post.slug,
        });
        await queries.trashComments.executeChanges(trx, { postId });
        return true;
      });
    },

    /**
     * Restores a trashed post in one transaction. Its slug is the first free
     * one (see `freeSlug`), read while holding the site's row so that
     * concurrent restores on one site take turns; should another writer take
     * that slug first all the same, the database's unique index
     * (`posts_unique_slug`) refuses the write and the restore runs again,
     * finding the next free slug.
     */
    async restorePost(postId, at) {
      if (!isStorableId(postId)) return undefined;
      return retryingTaken(db, (trx) => restoreOnce(trx, postId, at), MAX_SLUG_ATTEMPTS);
    },

    async deletePostForGood(postId) {
      if (!isStorableId(postId)) return false;
      return atomically(db, async (trx) => {
        // A conditional no-op update first: it holds the post's row (PostgreSQL) until the end, so a
        // concurrent restore or deletion waits, and only a post still in the trash goes on.
        const held = await trx
          .updateTable('posts')
          .set({ status: 'trash' })
          .where('id', '=', postId)
          .where('status', '=', 'trash')
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) !== 1) return false;
        const post = await trx
          .selectFrom('posts')
          .select(['type', 'parent_id'])
          .where('id', '=', postId)
          .executeTakeFirstOrThrow();
        // Children of the same type and attachments move up one level, as the platform points them.
        await trx
          .updateTable('posts')
          .set({ parent_id: post.parent_id })
          .where('parent_id', '=', postId)
          .where('type', '=', post.type)
          .execute();
        await trx.updateTable('attachments').set({ post_id: post.parent_id }).where('post_id', '=', postId).execute();
        for (const table of [
          'comments',
          'post_meta',
          'likes',
          'revisions',
          'autosaves',
          'post_terms',
          'trash_meta',
        ] as const) {
          await trx.deleteFrom(table).where('post_id', '=', postId).execute();
        }
        await trx.deleteFrom('posts').where('id', '=', postId).execute();
        return true;
      });
    },

    uniqueSlugFor(post, desired) {
      return freeSlug(db, post.id, { site_id: post.siteId, type: post.type, parent_id: post.parentId }, desired);
    },
  };
}
