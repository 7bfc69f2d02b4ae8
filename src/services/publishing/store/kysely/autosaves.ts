import { retryingTaken } from '../transactions.js';
import type { PostAutosaves } from '../../domain/publishingStore.js';
import type { AutosaveRecord } from '../../domain/records.js';
import { nextFreeId, type Db } from './db.js';
import type { AutosavesTable } from '../tables.js';
import type { Selectable } from 'kysely';

/** How many times an insert runs again when a concurrent one took the ID (or the same user's autosave) it chose. */
const MAX_ATTEMPTS = 20;

const toAutosave = (row: Selectable<AutosavesTable>): AutosaveRecord => ({
  id: row.id,
  postId: row.post_id,
  authorId: row.author_id,
  modified: row.modified,
  title: row.title,
  content: row.content,
  excerpt: row.excerpt,
});

/** Autosaves and a post's revisions on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostAutosaves(db: Db): PostAutosaves {
  const autosaveOf = async (postId: number, authorId: number, on: Db = db) => {
    const row = await on
      .selectFrom('autosaves')
      .selectAll()
      .where('post_id', '=', postId)
      .where('author_id', '=', authorId)
      .executeTakeFirst();
    return row ? toAutosave(row) : undefined;
  };
  return {
    autosaveOf: (postId, authorId) => autosaveOf(postId, authorId),

    saveAutosave(autosave) {
      const values = {
        modified: autosave.modified,
        title: autosave.title,
        content: autosave.content,
        excerpt: autosave.excerpt,
      };
      // Again after a unique violation: a concurrent writer took the ID, or saved this user's autosave first (then it is updated).
      return retryingTaken(
        db,
        async (trx) => {
          const current = await autosaveOf(autosave.postId, autosave.authorId, trx);
          if (current) {
            await trx.updateTable('autosaves').set(values).where('id', '=', current.id).execute();
            return { ...current, ...values };
          }
          const id = await nextFreeId(trx, 'autosaves');
          await trx
            .insertInto('autosaves')
            .values({ id, post_id: autosave.postId, author_id: autosave.authorId, ...values })
            .execute();
          return { id, ...autosave };
        },
        MAX_ATTEMPTS,
      );
    },

    async latestAutosave(postId) {
      const row = await db
        .selectFrom('autosaves')
        .selectAll()
        .where('post_id', '=', postId)
        .orderBy('modified', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toAutosave(row) : undefined;
    },

    async postRevisions(postId) {
      const rows = await db
        .selectFrom('revisions')
        .selectAll()
        .where('post_id', '=', postId)
        .orderBy('date')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        postId: row.post_id,
        authorId: row.author_id,
        date: row.date,
        title: row.title,
        content: row.content,
        excerpt: row.excerpt,
      }));
    },
  };
}
