import { sql, type ExpressionBuilder } from 'kysely';
import { atomically, retryingTaken } from '../transactions.js';
import type { PublishingTerms } from '../../domain/publishingStore.js';
import type { TermRecord } from '../../domain/records.js';
import type { PublishingTables } from '../tables.js';
import { idsBelow, isStorableId, nextFreeId, takeTurns, type Db } from './db.js';

/** How many times an insert runs again when a concurrent one took the ID or the slug it chose. */
const MAX_ATTEMPTS = 20;

/** How many rows one insert of a term's deletion writes (two bound values each). */
const INSERT_SLICE = 500;

/** A term's own columns, as every read of terms selects them. */
export const TERM_COLUMNS = [
  'terms.id',
  'terms.taxonomy',
  'terms.name',
  'terms.slug',
  'terms.description',
  'terms.parent_id',
] as const;

/** The columns of a term, with its published posts counted (as the post object's terms count them); also the post object's terms (`posts.ts`). */
export function termColumns(
  eb: ExpressionBuilder<PublishingTables & { counted: PublishingTables['post_terms'] }, 'terms'>,
) {
  return [
    ...TERM_COLUMNS,
    eb
      .selectFrom('post_terms as counted')
      .innerJoin('posts', 'posts.id', 'counted.post_id')
      .select((inner) => inner.fn.countAll().as('n'))
      .whereRef('counted.term_id', '=', 'terms.id')
      .where('posts.status', '=', 'publish')
      .as('post_count'),
  ] as const;
}

/** The terms with their columns (`termColumns`). */
function termRows(db: Db) {
  return db.selectFrom('terms').select(termColumns);
}

type TermRow = {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent_id: number;
  post_count: unknown;
};

// count(*) is a string on PostgreSQL.
const toTerm = (row: TermRow): TermRecord => ({
  id: row.id,
  taxonomy: row.taxonomy,
  name: row.name,
  slug: row.slug,
  description: row.description,
  parentId: row.parent_id,
  postCount: Number(row.post_count ?? 0),
});

/** `%text%` for a LIKE that finds `text` literally (its `%`, `_` and `\` escaped). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A site's categories and tags (and other taxonomies' terms) on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPublishingTerms(db: Db): PublishingTerms {
  return {
    async listTerms(query) {
      const matching = (on: Db) => {
        let rows = termRows(on).where('terms.site_id', '=', query.siteId).where('terms.taxonomy', '=', query.taxonomy);
        if (query.search !== undefined && query.search !== '') {
          const pattern = containing(query.search);
          rows = rows.where((eb) =>
            eb.or([
              eb(sql`lower(terms.name)`, 'like', sql`${pattern} escape '\\'`),
              eb(sql`lower(terms.slug)`, 'like', sql`${pattern} escape '\\'`),
            ]),
          );
        }
        return rows;
      };
      const direction = query.order === 'DESC' ? 'desc' : 'asc';
      const ordered =
        query.orderBy === 'count'
          ? matching(db).orderBy('post_count', direction).orderBy('terms.id', direction)
          : matching(db).orderBy(sql`lower(terms.name)`, direction).orderBy('terms.id', direction);
      const rows = await ordered.limit(query.limit).offset(query.offset).execute();
      const counted = await db
        .selectFrom(matching(db).as('matched'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return { found: Number(counted.n), terms: rows.map(toTerm) };
    },

    async findTermBySlug(siteId, taxonomy, slug) {
      const row = await termRows(db)
        .where('terms.site_id', '=', siteId)
        .where('terms.taxonomy', '=', taxonomy)
        .where('terms.slug', '=', slug)
        .executeTakeFirst();
      return row ? toTerm(row) : undefined;
    },

    async hasTerm(siteId, taxonomy, id) {
      if (!isStorableId(id)) return false;
      const row = await db
        .selectFrom('terms')
        .select('id')
        .where('site_id', '=', siteId)
        .where('taxonomy', '=', taxonomy)
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },

    insertTerm(siteId, taxonomy, term) {
      // New terms of a site are named one write at a time (before their IDs: see nextFreeId), so each reads the names and
      // slugs the one before it committed: else a crowd adding one name all find it free and add it many times, and pick
      // one slug, all but one colliding on it, and one could lose every retry. Again after a unique violation still
      // (a post's write adds terms by name without taking this turn, then finds the one it collided with).
      return retryingTaken(
        db,
        async (trx) => {
          await takeTurns(trx, `publishing.termNames:${siteId}`);
          const namesake = await trx
            .selectFrom('terms')
            .select('id')
            .where('site_id', '=', siteId)
            .where('taxonomy', '=', taxonomy)
            .where('name', '=', term.name)
            .where('parent_id', '=', term.parentId)
            .executeTakeFirst();
          if (namesake) return undefined;
          const taken = new Set(
            (
              await trx
                .selectFrom('terms')
                .select('slug')
                .where('site_id', '=', siteId)
                .where('taxonomy', '=', taxonomy)
                .where((eb) =>
                  eb.or([
                    eb('slug', '=', term.slug),
                    eb('slug', 'like', `${term.slug.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`),
                  ]),
                )
                .execute()
            ).map((row) => row.slug),
          );
          let slug = term.slug;
          for (let n = 2; taken.has(slug); n++) slug = `${term.slug}-${n}`;
          const id = await nextFreeId(trx, 'terms');
          await trx
            .insertInto('terms')
            .values({
              id,
              site_id: siteId,
              taxonomy,
              name: term.name,
              slug,
              description: term.description,
              parent_id: term.parentId,
            })
            .execute();
          return {
            id,
            taxonomy,
            name: term.name,
            slug,
            description: term.description,
            parentId: term.parentId,
            postCount: 0,
          };
        },
        MAX_ATTEMPTS,
      );
    },

    termIdsBelow(siteId, taxonomy, id) {
      return idsBelow(id, async (level) => {
        const rows = await db
          .selectFrom('terms')
          .select('id')
          .where('site_id', '=', siteId)
          .where('taxonomy', '=', taxonomy)
          .where('parent_id', 'in', level)
          .execute();
        return rows.map((row) => row.id);
      });
    },

    async updateTerm(siteId, taxonomy, id, fields) {
      const values = {
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        ...(fields.description !== undefined ? { description: fields.description } : {}),
        ...(fields.parentId !== undefined ? { parent_id: fields.parentId } : {}),
      };
      if (!Object.keys(values).length) return;
      await db
        .updateTable('terms')
        .set(values)
        .where('site_id', '=', siteId)
        .where('taxonomy', '=', taxonomy)
        .where('id', '=', id)
        .execute();
    },

    deleteTerm(siteId, taxonomy, id, fallbackId) {
      return atomically(db, async (trx) => {
        const term = await trx
          .selectFrom('terms')
          .select('parent_id')
          .where('site_id', '=', siteId)
          .where('taxonomy', '=', taxonomy)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!term) return;
        if (fallbackId !== undefined && fallbackId !== id) {
          // The posts whose only term of the taxonomy this is: `wp_delete_term` gives them the default instead.
          const orphans = await trx
            .selectFrom('post_terms as own')
            .select('own.post_id')
            .where('own.term_id', '=', id)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('post_terms as other')
                    .innerJoin('terms', 'terms.id', 'other.term_id')
                    .select('other.term_id')
                    .whereRef('other.post_id', '=', 'own.post_id')
                    .where('other.term_id', '!=', id)
                    .where('terms.taxonomy', '=', taxonomy),
                ),
              ),
            )
            .execute();
          // In slices: a statement's bound values are limited (SQLite: 32,766).
          for (let start = 0; start < orphans.length; start += INSERT_SLICE) {
            const slice = orphans.slice(start, start + INSERT_SLICE);
            await trx
              .insertInto('post_terms')
              .values(slice.map((row) => ({ post_id: row.post_id, term_id: fallbackId })))
              .execute();
          }
        }
        await trx.deleteFrom('post_terms').where('term_id', '=', id).execute();
        await trx
          .updateTable('terms')
          .set({ parent_id: term.parent_id })
          .where('site_id', '=', siteId)
          .where('taxonomy', '=', taxonomy)
          .where('parent_id', '=', id)
          .execute();
        await trx
          .deleteFrom('terms')
          .where('site_id', '=', siteId)
          .where('taxonomy', '=', taxonomy)
          .where('id', '=', id)
          .execute();
      });
    },
  };
}
