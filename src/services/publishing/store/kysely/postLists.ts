import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { prepared, preparedIn, type PreparedQuery } from '../../../../platform/store/prepared.js';
import type { PostListQuery, PostListing, PublishingPostLists } from '../../domain/publishingStore.js';
import type { PostRecord } from '../../domain/records.js';
import type { PublishingTables } from '../tables.js';
import { idsBelow, type Db } from './db.js';
import { toPost, withTrashMemory, type PostRow } from './posts.js';
import type { KeptUnderMark } from '../../keptUnderMark.js';
import { countsQuery, keptCount } from './postCounts.js';
import { inSearchTurn, matchingIds, searchCondition, searchesBefore, searchShape, searchValues } from './postSearch.js';

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
 * The values of a list's statement, by name: the prepared statement of the
 * list's shape (`shapeOf`) takes them as parameters. `type0`, `type1`, ...
 * and `status0`, ... are the `in` lists.
 */
type ListValues = Record<string, string | number>;

/** The values of a list query, named as `matching` reads them. */
function valuesOf(query: PostListQuery): ListValues {
  const values: ListValues = { siteId: query.siteId, limit: query.limit, offset: query.offset };
  query.types.forEach((type, i) => (values[`type${i}`] = type));
  query.statuses.forEach((status, i) => (values[`status${i}`] = status));
  if (typeof query.visibleTo === 'object') values.ownerId = query.visibleTo.ownerId;
  if (query.authorId !== undefined) values.authorId = query.authorId;
  Object.assign(values, searchValues(query.search));
  for (const name of ['dateAfter', 'dateBefore', 'modifiedAfter', 'modifiedBefore'] as const)
    if (query[name] !== undefined) values[name] = query[name];
  query.termSets?.forEach((set, i) => set.forEach((id, j) => (values[`term${i}_${j}`] = id)));
  query.excludeIds?.forEach((id, i) => (values[`exclude${i}`] = id));
  if (query.parentId !== undefined) values.parentId = query.parentId;
  if (query.metaKey !== undefined) values.metaKey = query.metaKey;
  query.metaValues?.forEach((value, i) => (values[`metaValue${i}`] = value));
  if (query.after) {
    values.afterValue = query.after.value;
    values.afterId = query.after.id;
  }
  return values;
}

/**
 * What a list's SQL depends on besides its values: the lengths of its `in`
 * lists, the viewer's kind of visibility, which conditions it has, its order
 * and whether it continues from a handle. Lists of one shape share their
 * statements (`prepared`), built once instead of on every request.
 */
function shapeOf(query: PostListQuery): string {
  const visibility = typeof query.visibleTo === 'object' ? 'owner' : query.visibleTo;
  const has = (value: unknown) => (value === undefined ? '-' : '+');
  return [
    query.types.length,
    query.statuses.length,
    visibility,
    has(query.authorId),
    searchShape(query.search),
    query.sticky,
    has(query.dateAfter),
    has(query.dateBefore),
    has(query.modifiedAfter),
    has(query.modifiedBefore),
    (query.termSets ?? []).map((set) => set.length).join(','),
    query.excludeIds?.length ?? '-',
    has(query.parentId),
    has(query.metaKey),
    query.metaValues?.length ?? '-',
    query.orderBy,
    query.order,
    has(query.after),
  ].join(' ');
}

/**
 * Every condition of a list but its order and page: the site, types and
 * statuses, what a restricted viewer may see (published posts without a
 * password, and their own posts), author, search, sticky, date ranges and
 * the position after a page handle (keyset: past the handle's sort value,
 * or at it with an ID past the handle's). Its shape comes from `query`, its
 * values from `v` (the placeholders of a prepared statement).
 */
function matching(db: Db, query: PostListQuery, v: ListValues): PostsQuery {
  const at = (name: string) => v[name]!;
  let q = db
    .selectFrom('posts')
    .where('posts.site_id', '=', at('siteId') as number)
    .where(
      'posts.type',
      'in',
      query.types.map((_, i) => at(`type${i}`) as string),
    )
    .where(
      'posts.status',
      'in',
      query.statuses.map((_, i) => at(`status${i}`) as string),
    );
  const { visibleTo } = query;
  if (visibleTo === 'published') q = q.where('posts.status', '=', 'publish').where('posts.password', '=', '');
  else if (visibleTo !== 'all') {
    const own = at('ownerId') as number;
    q = q.where((eb) =>
      eb.or([
        eb.and([
          eb('posts.status', '=', 'publish'),
          eb.or([eb('posts.password', '=', ''), eb('posts.author_id', '=', own)]),
        ]),
        eb('posts.author_id', '=', own),
      ]),
    );
  }
  if (query.authorId !== undefined) q = q.where('posts.author_id', '=', at('authorId') as number);
  const { search } = query;
  if (search !== undefined) q = q.where((eb) => searchCondition(db, eb, search, at));
  if (query.sticky === 'exclude') q = q.where('posts.sticky', '=', 0);
  else if (query.sticky === 'require') q = q.where('posts.sticky', '=', 1);
  // As the platform's list: `after` alone is exclusive, with `before` inclusive (`>= after and < before`).
  if (query.dateAfter !== undefined)
    q = q.where('posts.date', query.dateBefore === undefined ? '>' : '>=', at('dateAfter') as string);
  if (query.dateBefore !== undefined) q = q.where('posts.date', '<', at('dateBefore') as string);
  if (query.modifiedAfter !== undefined)
    q = q.where('posts.modified', query.modifiedBefore === undefined ? '>' : '>=', at('modifiedAfter') as string);
  if (query.modifiedBefore !== undefined) q = q.where('posts.modified', '<', at('modifiedBefore') as string);
  query.termSets?.forEach((set, i) => {
    const ids = set.map((_, j) => at(`term${i}_${j}`) as number);
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('post_terms')
          .select('post_terms.post_id')
          .whereRef('post_terms.post_id', '=', 'posts.id')
          .where('post_terms.term_id', 'in', ids),
      ),
    );
  });
  if (query.excludeIds?.length)
    q = q.where(
      'posts.id',
      'not in',
      query.excludeIds.map((_, i) => at(`exclude${i}`) as number),
    );
  if (query.parentId !== undefined)
    q = q.where((eb) => eb(eb.fn.coalesce('posts.parent_id', eb.lit(0)), '=', at('parentId') as number));
  if (query.metaKey !== undefined) {
    const key = at('metaKey') as string;
    const metaValues = query.metaValues?.map((_, i) => at(`metaValue${i}`) as string);
    q = q.where(({ exists, selectFrom }) => {
      let entries = selectFrom('post_meta')
        .select('post_meta.post_id')
        .whereRef('post_meta.post_id', '=', 'posts.id')
        .where('post_meta.meta_key', '=', key);
      if (metaValues) entries = entries.where('post_meta.meta_value', 'in', metaValues);
      return exists(entries);
    });
  }
  if (query.after) {
    const past = query.order === 'DESC' ? '<' : '>';
    const afterValue = at('afterValue');
    const afterId = at('afterId') as number;
    q = q.where((eb) =>
      query.orderBy === 'ID'
        ? eb('posts.id', past, afterId)
        : eb.or([
            eb(sortKey(eb, query.orderBy), past, afterValue),
            eb.and([eb(sortKey(eb, query.orderBy), '=', afterValue), eb('posts.id', past, afterId)]),
          ]),
    );
  }
  return q;
}

/** Posts by ID, each with its trash memory: the records of a page not kept under the mark. */
const postsByIds = preparedIn<PublishingTables, PostRow>((db, ids) =>
  db.selectFrom('posts').$call(withTrashMemory).where('posts.id', 'in', ids),
);

/**
 * A page's posts, kept ones under `mark` taken as they are and the others
 * read by ID and kept: the page's statement read only IDs and sort values.
 * A post gone between the two reads (deleted meanwhile) is left out.
 */
async function keptOrRead(
  db: Db,
  kept: KeptUnderMark<PostRecord>,
  mark: string,
  rows: readonly { id: number; sort_value: string | number }[],
): Promise<PostListing['posts']> {
  const posts = rows.map((row) => kept.find(mark, String(row.id)));
  const unkept = rows.filter((_, index) => !posts[index]).map((row) => row.id);
  const read = new Map<number, PostRecord>();
  for (const row of await postsByIds(db, unkept)) read.set(row.id, kept.keep(mark, String(row.id), toPost(row)));
  const listed: PostListing['posts'] = [];
  for (const [index, row] of rows.entries()) {
    const post = posts[index] ?? read.get(row.id);
    if (post)
      listed.push({ post, sortValue: typeof row.sort_value === 'string' ? row.sort_value : Number(row.sort_value) });
  }
  return listed;
}

/** The longest a search may take on SQLite when the store is given no budget (STORE_TIMEOUT_MS's default). */
const DEFAULT_SEARCH_BUDGET_MS = 5000;

/**
 * Lists of a site's posts, and their counts, on a Kysely database (SQLite or
 * PostgreSQL); with `kept` (a store with a change mark), a page's post
 * records read under the query's mark are kept, and a page read again
 * reads only its IDs.
 */
export function kyselyPostLists(
  db: Db,
  kept?: KeptUnderMark<PostRecord>,
  searchBudgetMs = DEFAULT_SEARCH_BUDGET_MS,
): PublishingPostLists {
  const lists: PublishingPostLists = {
    async postCounts(siteId, type, userId) {
      const rows = await countsQuery.execute(db, { siteId, type, userId });
      // sum() is a string (bigint) on PostgreSQL.
      return rows.map((row) => ({ status: row.status, all: Number(row.all), mine: Number(row.mine) }));
    },

    postIdsBelow(siteId, type, postId) {
      return idsBelow(postId, async (level) => {
        const rows = await db
          .selectFrom('posts')
          .select('id')
          .where('site_id', '=', siteId)
          .where('type', '=', type)
          .where('parent_id', 'in', level)
          .execute();
        return rows.map((row) => row.id);
      });
    },

    async termIdsBySlug(siteId, taxonomy, slugs, descendants) {
      if (!slugs.length) return [];
      const named = await db
        .selectFrom('terms')
        .select('id')
        .where('site_id', '=', siteId)
        .where('taxonomy', '=', taxonomy)
        .where('slug', 'in', [...new Set(slugs)])
        .execute();
      const ids = new Set(named.map((row) => row.id));
      if (!descendants || !ids.size) return [...ids];
      // A hierarchical taxonomy's terms of one site are few (categories): read them once and walk down from the named ones.
      const all = await db
        .selectFrom('terms')
        .select(['id', 'parent_id'])
        .where('site_id', '=', siteId)
        .where('taxonomy', '=', taxonomy)
        .execute();
      for (let grew = true; grew; ) {
        grew = false;
        for (const term of all) {
          if (!ids.has(term.id) && ids.has(term.parent_id)) {
            ids.add(term.id);
            grew = true;
          }
        }
      }
      return [...ids];
    },

    async listPosts(query): Promise<PostListing> {
      const values = valuesOf(query);
      const { search } = query;
      // SQLite: the posts the search matches, found in steps before the list's statements (postSearch.ts).
      if (search !== undefined && searchesBefore(db))
        values.searchIds = await matchingIds(db, { ...query, search }, searchBudgetMs);
      const { page, pageIds, total } = preparedOfShape(query);
      const counted = () =>
        keptCount(db, query).then(async (count) => count ?? Number((await total.executeTakeFirst(db, values))?.n ?? 0));
      // The caller read the mark before the page: records kept under it are as new as the page's IDs, or newer.
      const { mark } = query;
      if (kept && mark !== undefined) {
        const [rows, found] = await Promise.all([pageIds.execute(db, values), counted()]);
        return { found, posts: await keptOrRead(db, kept, mark, rows) };
      }
      const [rows, found] = await Promise.all([page.execute(db, values), counted()]);
      return {
        found,
        posts: rows.map(({ sort_value, ...row }) => ({
          post: toPost(row),
          sortValue: typeof sort_value === 'string' ? sort_value : Number(sort_value),
        })),
      };
    },
  };
  // PostgreSQL: a search's statements run in the search's turn (postSearch.ts).
  if (searchesBefore(db)) return lists;
  return {
    ...lists,
    listPosts: (query) =>
      query.search === undefined
        ? lists.listPosts(query)
        : inSearchTurn(query.caller, searchBudgetMs, () => lists.listPosts(query)),
  };
}

/** The statements of a list: its page (ordered, limited; of full rows, or of IDs only) and the count of every match; exported for the query-plan test. */
export function listQueries(db: Db, query: PostListQuery) {
  const values = valuesOf(query);
  const { page, pageIds, total } = preparedOfShape(query);
  return {
    page: { compile: () => page.compile(db, values) },
    pageIds: { compile: () => pageIds.compile(db, values) },
    total: { compile: () => total.compile(db, values) },
  };
}

/** A list's page (ordered, limited, each post with its trash memory and the value it was sorted by) and its count, for one shape. */
interface ListStatements {
  page: PreparedQuery<PublishingTables, ListValues, PostRow & { sort_value: string | number }>;
  /** The page's post IDs and sort values only (its records kept, see `keptOrRead`). */
  pageIds: PreparedQuery<PublishingTables, ListValues, { id: number; sort_value: string | number }>;
  total: PreparedQuery<PublishingTables, ListValues, { n: string | number | bigint }>;
}

/** Most shapes whose statements are kept (lists use a handful). */
const MAX_SHAPES = 256;
const statementsByShape = new Map<string, ListStatements>();

/** The prepared statements of the query's shape: built on its shape's first use, with the first query's shape. */
function preparedOfShape(query: PostListQuery): ListStatements {
  const shape = shapeOf(query);
  let statements = statementsByShape.get(shape);
  if (!statements) {
    if (statementsByShape.size >= MAX_SHAPES) statementsByShape.clear();
    const direction = query.order === 'DESC' ? 'desc' : 'asc';
    statements = {
      page: prepared((db: Db, v: ListValues) =>
        matching(db, query, v)
          .$call(withTrashMemory)
          .select((eb) => sql<string | number>`${sortKey(eb, query.orderBy)}`.as('sort_value'))
          .orderBy((eb) => sortKey(eb, query.orderBy), direction)
          .orderBy('posts.id', direction)
          .limit(v.limit as number)
          .offset(v.offset as number),
      ),
      pageIds: prepared((db: Db, v: ListValues) =>
        matching(db, query, v)
          .select('posts.id')
          .select((eb) => sql<string | number>`${sortKey(eb, query.orderBy)}`.as('sort_value'))
          .orderBy((eb) => sortKey(eb, query.orderBy), direction)
          .orderBy('posts.id', direction)
          .limit(v.limit as number)
          .offset(v.offset as number),
      ),
      total: prepared((db: Db, v: ListValues) => matching(db, query, v).select((eb) => eb.fn.countAll().as('n'))),
    };
    statementsByShape.set(shape, statements);
  }
  return statements;
}
