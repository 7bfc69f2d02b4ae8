import { atomically, retryingTaken } from '../transactions.js';
import type { PostFieldWrites } from '../../domain/publishingStore.js';
import type { TermRef } from '../../domain/records.js';
import { isStorableId, nextFreeId, type Db } from './db.js';

/** How many times an insert runs again when a concurrent one took the ID it chose. */
const MAX_ATTEMPTS = 20;

/** A post's terms and metadata, and the users a write names, on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostFieldWrites(db: Db): PostFieldWrites {
  const findTerms = async (
    siteId: number,
    taxonomy: string,
    ids: readonly number[],
    names: readonly string[],
    on: Db = db,
  ): Promise<TermRef[]> => {
    const storable = ids.filter(isStorableId);
    if (!storable.length && !names.length) return [];
    return on
      .selectFrom('terms')
      .select(['id', 'name', 'slug'])
      .where('site_id', '=', siteId)
      .where('taxonomy', '=', taxonomy)
      .where((eb) =>
        eb.or([
          ...(storable.length ? [eb('id', 'in', storable)] : []),
          ...(names.length ? [eb('slug', 'in', names), eb('name', 'in', names)] : []),
        ]),
      )
      .orderBy('id')
      .execute();
  };

  return {
    findTerms,

    addTerm(siteId, taxonomy, name, slug): Promise<TermRef> {
      // Again after a unique violation: a concurrent writer took the ID, or added the term itself (then it is found).
      return retryingTaken(
        db,
        async (trx) => {
          const [existing] = await findTerms(siteId, taxonomy, [], [slug], trx).then((terms) =>
            terms.filter((term) => term.slug === slug),
          );
          if (existing) return existing;
          const id = await nextFreeId(trx, 'terms');
          await trx
            .insertInto('terms')
            .values({ id, site_id: siteId, taxonomy, name, slug, description: '', parent_id: 0 })
            .execute();
          return { id, name, slug };
        },
        MAX_ATTEMPTS,
      );
    },

    async setPostTerms(postId, taxonomy, termIds) {
      await atomically(db, async (trx) => {
        await trx
          .deleteFrom('post_terms')
          .where('post_id', '=', postId)
          .where('term_id', 'in', trx.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy))
          .execute();
        const named = [...new Set(termIds)].filter(isStorableId);
        // Only terms of the taxonomy on the post's own site: an ID of another site's term names nothing.
        const unique = named.length
          ? await trx
              .selectFrom('terms')
              .select('id')
              .where('id', 'in', named)
              .where('taxonomy', '=', taxonomy)
              .where('site_id', '=', trx.selectFrom('posts').select('site_id').where('id', '=', postId))
              .execute()
          : [];
        if (unique.length)
          await trx
            .insertInto('post_terms')
            .values(unique.map(({ id }) => ({ post_id: postId, term_id: id })))
            .execute();
      });
    },

    async postMetadata(postId) {
      const rows = await db.selectFrom('post_meta').selectAll().where('post_id', '=', postId).orderBy('id').execute();
      return rows.map((row) => ({ id: row.id, key: row.meta_key, value: JSON.parse(row.meta_value) as unknown }));
    },

    async addPostMetadata(postId, key, value) {
      await retryingTaken(
        db,
        async (trx) => {
          const id = await nextFreeId(trx, 'post_meta');
          await trx
            .insertInto('post_meta')
            .values({ id, post_id: postId, meta_key: key, meta_value: JSON.stringify(value) })
            .execute();
        },
        MAX_ATTEMPTS,
      );
    },

    async updatePostMetadata(ids, value) {
      if (ids.length)
        await db
          .updateTable('post_meta')
          .set({ meta_value: JSON.stringify(value) })
          .where('id', 'in', ids)
          .execute();
    },

    async deletePostMetadata(ids) {
      if (ids.length) await db.deleteFrom('post_meta').where('id', 'in', ids).execute();
    },

    async hasAttachment(siteId, id) {
      if (!isStorableId(id)) return false;
      const row = await db
        .selectFrom('attachments')
        .select('id')
        .where('id', '=', id)
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
