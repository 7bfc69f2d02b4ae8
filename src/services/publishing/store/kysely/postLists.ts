import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { prepared } from '../../../../platform/store/prepared.js';
import type { PostListQuery, PostListing, PublishingPostLists } from '../publishingStore.js';
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

/** A site's kept counts per type and status, every author summed: a few rows of `post_counts`. */
const siteCountsQuery = prepared((db: Db, p: { siteId: number }) =>
  db
    .selectFrom('post_counts')
    .select((eb) => ['type', 'status', eb.fn.sum<number>('n').as('n')])
    .where('site_id', '=', p.siteId)
    .groupBy(['type', 'status']),
);

/**
 * A site's published posts with a password, per type: through the partial
 * index `posts_protected`, whose condition the statement repeats as written
 * (a parameter in its place would not match it).
 */
const protectedCountsQuery = prepared((db: Db, p: { siteId: number }) =>
  db
    .selectFrom('posts')
    .select((eb) => ['type', eb.fn.countAll<number>().as('n')])
    .where('site_id', '=', p.siteId)
    .where(sql<boolean>`status = 'publish' and password <> ''`)
    .groupBy('type'),
);

/**
 * How many posts a list matches, when nothing narrows it but the site,
 * types, statuses and a viewer who sees every post or only published ones
 * without a password: the kept counts of those types and statuses, less
 * (for the latter) the published posts with a password. Undefined when the
 * list has another condition (author, search, sticky, dates, a page
 * handle, a viewer who sees their own posts): those are counted by a read
 * of the matching posts.
 */
async function keptCount(db: Db, query: PostListQuery): Promise<number | undefined> {
  const { visibleTo } = query;
  if (typeof visibleTo === 'object' || query.authorId !== undefined || query.search !== undefined || query.sticky !== 'include') return undefined;
  if (query.dateAfter ?? query.dateBefore ?? query.modifiedAfter ?? query.modifiedBefore ?? query.after) return undefined;
  const statuses = visibleTo === 'published' ? query.statuses.filter((status) => status === 'publish') : query.statuses;
  const [counts, protectedCounts] = await Promise.all([
    siteCountsQuery.execute(db, { siteId: query.siteId }),
    visibleTo === 'published' ? protectedCountsQuery.execute(db, { siteId: query.siteId }) : [],
  ]);
  let found = 0;
  // sum() and count() are strings (bigint) on PostgreSQL.
  for (const row of counts) if (query.types.includes(row.type) && statuses.includes(row.status)) found += Number(row.n);
  for (const row of protectedCounts) if (query.types.includes(row.type)) found -= Number(row.n);
  return found;
}

/** Lists of a site's posts, and their counts, on a Kysely database (SQLite or PostgreSQL). */
export function kyselyPostLists(db: Db): PublishingPostLists {
  return {
    async postCounts(siteId, type, userId) {
      const rows = await countsQuery.execute(db, { siteId, type, userId });
      // sum() is a string (bigint) on PostgreSQL.
      return rows.map((row) => ({ status: row.status, all: Number(row.all), mine: Number(row.mine) }));
    },

    async listPosts(query): Promise<PostListing> {
      const [rows, found] = await Promise.all([
        pageQuery(db, query).execute(),
        keptCount(db, query).then(async (kept) => kept ?? Number((await totalQuery(db, query).executeTakeFirstOrThrow()).n)),
      ]);
      return {
        found,
        posts: rows.map(({ sort_value, ...row }) => ({ post: toPost(row), sortValue: typeof sort_value === 'string' ? sort_value : Number(sort_value) })),
      };
    },
  };
}

/** The two statements of a list: its page (ordered, limited) and the count of every match; exported for the query-plan test. */
export function listQueries(db: Db, query: PostListQuery) {
  return { page: pageQuery(db, query), total: totalQuery(db, query) };
}

/** A list's page: ordered, limited, each post with its trash memory and the value it was sorted by. */
function pageQuery(db: Db, query: PostListQuery) {
  const direction = query.order === 'DESC' ? 'desc' : 'asc';
  return matching(db, query)
    .$call(withTrashMemory)
    .select((eb) => sql<string | number>`${sortKey(eb, query.orderBy)}`.as('sort_value'))
    .orderBy((eb) => sortKey(eb, query.orderBy), direction)
    .orderBy('posts.id', direction)
    .limit(query.limit)
    .offset(query.offset);
}

/** The count of every post a list matches. */
const totalQuery = (db: Db, query: PostListQuery) => matching(db, query).select((eb) => eb.fn.countAll().as('n'));

/** The statements of a count from the kept counts; exported for the query-plan test. */
export const keptCountQueries = { site: siteCountsQuery, protectedPosts: protectedCountsQuery };
