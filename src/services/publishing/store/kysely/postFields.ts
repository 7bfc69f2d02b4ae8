import { isUniqueViolation } from '../../../../platform/store/uniqueViolation.js';
import type { PostFieldWrites, TermRef } from '../publishingStore.js';
import { isStorableId, type Db } from './db.js';
import { primarySite, toUser } from './userRow.js';

/** How many times an insert runs again when a concurrent one took the ID it chose. */
const MAX_ATTEMPTS = 20;

/** The next ID of a table with explicit integer IDs (the store has no sequences, for SQLite and PostgreSQL alike). */
async function nextId(db: Db, table: 'terms' | 'post_meta'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.max('id').as('top')).executeTakeFirst();
  return Number(row?.top ?? 0) + 1;
}

/** A post's terms and metadata, and the users a write names, on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostFieldWrites(db: Db): PostFieldWrites {
  const findTerms: PostFieldWrites['findTerms'] = async (siteId, taxonomy, ids, names) => {
    const storable = ids.filter(isStorableId);
    if (!storable.length && !names.length) return [];
    return db
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

    async addTerm(siteId, taxonomy, name, slug): Promise<TermRef> {
      for (let attempt = 1; ; attempt++) {
        const [existing] = await findTerms(siteId, taxonomy, [], [slug]).then((terms) => terms.filter((term) => term.slug === slug));
        if (existing) return existing;
        try {
          const id = await nextId(db, 'terms');
          await db.insertInto('terms').values({ id, site_id: siteId, taxonomy, name, slug, description: '', parent_id: 0 }).execute();
          return { id, name, slug };
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= MAX_ATTEMPTS) throw error;
        }
      }
    },

    async setPostTerms(postId, taxonomy, termIds) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('post_terms')
          .where('post_id', '=', postId)
          .where('term_id', 'in', trx.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy))
          .execute();
        const unique = [...new Set(termIds)];
        if (unique.length) await trx.insertInto('post_terms').values(unique.map((term_id) => ({ post_id: postId, term_id }))).execute();
      });
    },

    async postMetadata(postId) {
      const rows = await db.selectFrom('post_meta').selectAll().where('post_id', '=', postId).orderBy('id').execute();
      return rows.map((row) => ({ id: row.id, key: row.meta_key, value: JSON.parse(row.meta_value) as unknown }));
    },

    async addPostMetadata(postId, key, value) {
      for (let attempt = 1; ; attempt++) {
        try {
          const id = await nextId(db, 'post_meta');
          await db.insertInto('post_meta').values({ id, post_id: postId, meta_key: key, meta_value: JSON.stringify(value) }).execute();
          return;
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= MAX_ATTEMPTS) throw error;
        }
      }
    },

    async updatePostMetadata(ids, value) {
      if (ids.length) await db.updateTable('post_meta').set({ meta_value: JSON.stringify(value) }).where('id', 'in', ids).execute();
    },

    async deletePostMetadata(ids) {
      if (ids.length) await db.deleteFrom('post_meta').where('id', 'in', ids).execute();
    },

    async findUserById(id) {
      if (!isStorableId(id)) return undefined;
      const row = await db.selectFrom('users').selectAll('users').select(primarySite).where('users.id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },
  };
}
