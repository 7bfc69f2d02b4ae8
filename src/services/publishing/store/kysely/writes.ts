import type { Insertable, Updateable } from 'kysely';
import { prepared } from '../../../../platform/store/prepared.js';
import { retryingTaken } from '../../../../platform/store/transactions.js';
import { slugMustBeUnique } from '../trashRules.js';
import type { PostWrites } from '../../domain/publishingStore.js';
import type { PostsTable } from '../tables.js';
import { isStorableId, type Db } from './db.js';
import { freeSlug } from './trash.js';

/** How many times a write runs again when a concurrent one took the ID, revision ID or slug it chose. */
const MAX_ATTEMPTS = 20;

/** The next ID of a table with explicit integer IDs (the store has no sequences, for SQLite and PostgreSQL alike). */
async function nextId(db: Db, table: 'posts' | 'revisions'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.max('id').as('top')).executeTakeFirst();
  return Number(row?.top ?? 0) + 1;
}

/** Whether a site has scheduled posts of one type whose date has come (every read, list and count of a site asks it): built once. */
const hasDueOfType = prepared((db: Db, p: { siteId: number; type: string; at: string }) =>
  db.selectFrom('posts').select('id').where('site_id', '=', p.siteId).where('type', '=', p.type).where('status', '=', 'future').where('date', '<=', p.at).limit(1),
);

/** Writing posts on a Kysely database (SQLite or PostgreSQL): each write in one transaction (or in the request's, see `inTransaction`). */
export function kyselyPostWrites(db: Db): PostWrites {
  return {
    createPost(post, guidOf) {
      return retryingTaken(
        db,
        async (trx) => {
          const id = await nextId(trx, 'posts');
          const scope = { site_id: post.site_id, type: post.type, parent_id: post.parent_id ?? null };
          const slug = slugMustBeUnique(post.status, post.slug) ? await freeSlug(trx, id, scope, post.slug) : post.slug;
          const row: Insertable<PostsTable> = { ...post, id, slug, guid: guidOf(id) };
          await trx.insertInto('posts').values(row).execute();
          return id;
        },
        MAX_ATTEMPTS,
      );
    },

    updatePost(postId, changes, revision) {
      if (!isStorableId(postId)) return Promise.resolve(false);
      return retryingTaken(
        db,
        async (trx) => {
          const current = await trx.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
          if (!current) return false;
          const next = { ...current, ...changes };
          const update: Updateable<PostsTable> = { ...changes };
          if (slugMustBeUnique(next.status, next.slug)) {
            update.slug = await freeSlug(trx, postId, { site_id: next.site_id, type: next.type, parent_id: next.parent_id }, next.slug);
          }
          await trx.updateTable('posts').set(update).where('id', '=', postId).execute();
          const id = await nextId(trx, 'revisions');
          await trx
            .insertInto('revisions')
            .values({ id, post_id: postId, author_id: revision.authorId, date: revision.at, title: next.title, content: next.content, excerpt: next.excerpt })
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

    async hasDuePosts(siteId, types, at) {
      if (types.length === 1) return (await hasDueOfType.executeTakeFirst(db, { siteId, type: types[0]!, at: at.toISOString() })) !== undefined;
      const row = await db
        .selectFrom('posts')
        .select('id')
        .where('site_id', '=', siteId)
        .where('type', 'in', types)
        .where('status', '=', 'future')
        .where('date', '<=', at.toISOString())
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
