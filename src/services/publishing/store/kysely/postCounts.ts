import { sql } from 'kysely';
import { prepared } from '../../../../platform/store/prepared.js';
import type { PostListQuery } from '../../domain/publishingStore.js';
import type { Db } from './db.js';

/*
 * The counts of a site's posts: read from the kept counts (`post_counts`, one
 * row per site, type, status and author, kept by the writes) where a list
 * allows it, instead of counting the matching posts.
 */

/** The counts of one site and type per status, for all and for one author: a few rows of `post_counts`. */
export const countsQuery = prepared((db: Db, p: { siteId: number; type: string; userId: number }) =>
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
 * index `posts_protected`, whose condition (`password <> ''`) the statement
 * repeats as written (a parameter in its place would not match it).
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
export async function keptCount(db: Db, query: PostListQuery): Promise<number | undefined> {
  const { visibleTo } = query;
  if (
    typeof visibleTo === 'object' ||
    query.authorId !== undefined ||
    query.search !== undefined ||
    query.sticky !== 'include'
  )
    return undefined;
  if (query.dateAfter ?? query.dateBefore ?? query.modifiedAfter ?? query.modifiedBefore ?? query.after)
    return undefined;
  if (query.termSets?.length || query.excludeIds?.length || query.parentId !== undefined || query.metaKey !== undefined)
    return undefined;
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

/** The statements of a count from the kept counts; exported for the query-plan test. */
export const keptCountQueries = { site: siteCountsQuery, protectedPosts: protectedCountsQuery };
