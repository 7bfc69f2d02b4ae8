import type { PostLikes } from '../../domain/publishingStore.js';
import { count, exists, type Db } from './db.js';
import { primarySite, toUser } from './userRow.js';

/** Likes of posts on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostLikes(db: Db): PostLikes {
  return {
    async postLikers(postId, limit) {
      const found = await count(db.selectFrom('likes').where('post_id', '=', postId));
      const rows = await db
        .selectFrom('likes')
        .innerJoin('users', 'users.id', 'likes.user_id')
        .selectAll('users')
        .select(primarySite)
        .where('likes.post_id', '=', postId)
        .orderBy('likes.date', 'desc')
        .orderBy('users.id')
        .limit(limit)
        .execute();
      return { found, users: rows.map(toUser) };
    },

    likedBy(postId, userId) {
      return exists(db.selectFrom('likes').where('post_id', '=', postId).where('user_id', '=', userId));
    },
  };
}
