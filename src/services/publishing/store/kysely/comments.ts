import { camelCased } from '../columns.js';
import type { PostComments } from '../../domain/publishingStore.js';
import { count, type Db } from './db.js';
import { primarySite, toUser } from './userRow.js';

/** Approved comments of posts on a Kysely database (SQLite or PostgreSQL), with their authors. */
export function kyselyPostComments(db: Db): PostComments {
  return {
    async approvedComments(postId, limit) {
      const found = await count(
        db.selectFrom('comments').where('post_id', '=', postId).where('status', '=', 'approved'),
      );
      const comments = await db
        .selectFrom('comments')
        .select(['id', 'parent_id', 'author_id', 'author_name', 'author_email', 'author_url', 'date', 'content'])
        .where('post_id', '=', postId)
        .where('status', '=', 'approved')
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const authorIds = [...new Set(comments.flatMap((row) => (row.author_id === null ? [] : [row.author_id])))];
      const authors = authorIds.length
        ? await db
            .selectFrom('users')
            .selectAll('users')
            .select(primarySite)
            .where('users.id', 'in', authorIds)
            .execute()
        : [];
      const byId = new Map(authors.map((row) => [row.id, toUser(row)]));
      return {
        found,
        comments: comments.map(({ author_id, ...row }) => ({
          ...camelCased(row),
          author: author_id === null ? null : (byId.get(author_id) ?? null),
        })),
      };
    },
  };
}
