import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { prepared } from '../../../../platform/store/prepared.js';
import type { PostListQuery, PostListing, PublishingPostLists } from '../../domain/publishingStore.js';
import type { PublishingTables } from '../tables.js';
import { type Db } from './db.js';
import { toPost, withTrashMemory } from './posts.js';

type PostsQuery = SelectQueryBuilder<PublishingTables, 'posts', object>;
type PostsEb = ExpressionBuilder<PublishingTables, 'posts'>;

/** The column (or, for `comment_count`, the expression) a list is ordered by. */
function sortKey(eb: PostsEb, orderBy: PostListQuery['orderBy']): Expression<string | number> {
  switch (orderBy) {
    case 'ID':
      return eb.ref('posts.id');
    case 'comment_count':
      return sql<number>`(${eb
        .selectFrom('comments')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('comments.post_id', '=', 'posts.id')
        .where('comments.status', '=', 'approved')})`;
    default:
      return eb.ref(`posts.${orderBy}`);
  }
}

/**
 * Every condition of a list but its order and page: the site, types and
 * statuses, what a restricted viewer may see (published posts without a
 * password, and their own posts), author, search, sticky, date ranges and
 * the position after a page handle (keyset: past the handle's sort value,
 * or at it with an ID past the handle's).
 */
function matching(db: Db, query: PostListQuery): PostsQuery {
  let q = db
    .selectFrom('posts')
    .where('posts.site_id', '=', query.siteId)
    .where('posts.type', 'in', query.types)
    .where('posts.status', 'in', query.statuses);
  const { visibleTo } = query;
  if (visibleTo === 'published') q = q.where('posts.status', '=', 'publish').where('posts.password', '=', '');
  else if (visibleTo !== 'all') {
    const own = visibleTo.ownerId;
    q = q.where((eb) =>
      eb.or([
        eb.and([eb('posts.status', '=', 'publish'), eb.or([eb('posts.password', '=', ''), eb('posts.author_id', '=', own)])]),
        eb('posts.author_id', '=', own),
      ]),
    );
  }
  if (query.authorId !== undefined) q = q.where('posts.author_id', '=', query.authorId);
  if (query.search !== undefined) {
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or(
        (['title', 'excerpt', 'content'] as const).map((column) => eb(sql`lower(${eb.ref(`posts.${column}`)})`, 'like', sql`${pattern} escape '\\'`)),
      ),
    );
  }
  if (query.sticky === 'exclude') q = q.where('posts.sticky', '=', 0);
  else if (query.sticky === 'require') q = q.where('posts.sticky', '=', 1);
  if (query.dateAfter !== undefined) q = q.where('posts.date', '>', query.dateAfter);
  if (query.dateBefore !== undefined) q = q.where('posts.date', '<', query.dateBefore);
  if (query.modifiedAfter !== undefined) q = q.where('posts.modified', '>', query.modifiedAfter);
  if (query.modifiedBefore !== undefined) q = q.where('posts.modified', '<', query.modifiedBefore);
  const { after } = query;
  if (after) {
    const past = query.order === 'DESC' ? '<' : '>';
    q = q.where((eb) =>
      query.orderBy === 'ID'
        ? eb('posts.id', past, after.id)
        : eb.or([
            eb(sortKey(eb, query.orderBy), past, after.value),
            eb.and([eb(sortKey(eb, query.orderBy), '=', after.value), eb('posts.id', past, after.id)]),
          ]),
    );
  }
  return q;
}

/** The counts of one site and type per status, for all and for one author: a few rows of `post_counts`. */
const countsQuery = prepared((db: Db, p: { siteId: number; type: string; userId: number }) =>
  db
    .selectFrom('post_counts')
    .select((eb) => [
      'status',
      eb.fn.sum<number>('n').as('all'),
      eb.fn.sum<number>(eb.case().when('author_id', '=', p.userId).then(eb.ref('n')).else(eb.lit(0)).end()).as('mine'),
    ])
    .where('site_id', '=', p.siteId)
    .where('type', '=', p.type)
    .groupBy('status'),
);

/** Lists of a site's posts, and their counts, on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostLists(db: Db): PublishingPostLists {
  return {
    async postCounts(siteId, type, userId) {
      const rows = await countsQuery.execute(db, { siteId, type, userId });
      // sum() is a string (bigint) on PostgreSQL.
      return rows.map((row) => ({ status: row.status, all: Number(row.all), mine: Number(row.mine) }));
    },

    async listPosts(query): Promise<PostListing> {
      const { page, total } = listQueries(db, query);
      const [rows, counted] = await Promise.all([page.execute(), total.executeTakeFirstOrThrow()]);
      return {
        found: Number(counted.n),
        posts: rows.map(({ sort_value, ...row }) => ({ post: toPost(row), sortValue: typeof sort_value === 'string' ? sort_value : Number(sort_value) })),
      };
    },
  };
}

/** The two statements of a list: its page (ordered, limited) and the count of every match; exported for the query-plan test. */
export function listQueries(db: Db, query: PostListQuery) {
  const direction = query.order === 'DESC' ? 'desc' : 'asc';
  const page = matching(db, query)
    .$call(withTrashMemory)
    .select((eb) => sql<string | number>`${sortKey(eb, query.orderBy)}`.as('sort_value'))
    .orderBy((eb) => sortKey(eb, query.orderBy), direction)
    .orderBy('posts.id', direction)
    .limit(query.limit)
    .offset(query.offset);
  const total = matching(db, query).select((eb) => eb.fn.countAll().as('n'));
  return { page, total };
}
