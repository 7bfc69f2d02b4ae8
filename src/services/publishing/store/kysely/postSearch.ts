import { sql, SqliteAdapter, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { fairTurns } from '../../../../platform/ops/fairTurns.js';
import { StoreBusyError } from '../../../../platform/store/unavailable.js';
import type { PostListQuery } from '../../domain/publishingStore.js';
import type { SearchTerm } from '../../domain/searchTerms.js';
import type { PublishingTables } from '../tables.js';
import type { Db } from './db.js';
import { served } from '../../../../platform/ops/served.js';

/**
 * A list's `search` through an index (docs/decisions/search-index.md).
 *
 * PostgreSQL: each term a case-insensitive literal match in the title,
 * excerpt or content (none of them for an excluded term), which the trigram
 * GIN indexes of migration `10-search-index` answer; the statement runs on
 * the server, bounded by the pool's statement timeout.
 *
 * SQLite runs on the event loop: a statement that reads many large posts
 * holds every request of the process until it ends. So the posts a search
 * matches are found before the list's statement, in steps: the FTS5 trigram
 * index names the site's posts holding every three-character piece of the
 * terms (a read of the index only); those are then checked for the terms
 * themselves a few posts per statement (`SLICE_POSTS`), one search at a
 * time for the whole process, callers taking turns round robin
 * (`fairTurns`: a caller that floods holds one place in the line), each step after
 * the event loop has served what waits (`setImmediate`). A search that has
 * not ended within its budget (`STORE_TIMEOUT_MS`, waiting for its turn
 * included) ends with `StoreBusyError` (503 with `Retry-After`).
 * The list's statement then takes the matched IDs (`posts.id in json_each`).
 */

type PostsEb = ExpressionBuilder<PublishingTables, 'posts'>;

/** Posts checked for the terms by one statement: with posts of at most a 64 kB body, at most ~130 kB read between two turns of the event loop. */
export const SLICE_POSTS = 2;

const COLUMNS = ['title', 'excerpt', 'content'] as const;

/** Whether `db` is SQLite (its search goes through `matchingIds`). */
function onSqlite(db: Db): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * A search's terms, those a post must contain first: a list's statement
 * depends only on how many of each kind there are (at most 55 shapes of
 * nine terms, not 2^9 orders).
 */
function orderedTerms(terms: readonly SearchTerm[]): SearchTerm[] {
  return [...terms.filter((term) => !term.exclude), ...terms.filter((term) => term.exclude)];
}

/** What a search adds to a list's shape: how many terms a post must contain, and how many it must not. */
export function searchShape(terms: readonly SearchTerm[] | undefined): string {
  if (terms === undefined) return '-';
  const excluded = terms.filter((term) => term.exclude).length;
  return `s${terms.length - excluded}+${excluded}-`;
}

/**
 * The values of a search, named as `searchCondition` reads them: `search0`,
 * ... (PostgreSQL's patterns: `***=` makes the rest of a regular expression
 * a literal string, so `%`, `_`, `\` and every other character match
 * themselves) and `searchIds` (SQLite's matched IDs, a JSON array, filled in
 * by `matchingIds` before the list runs).
 */
export function searchValues(search: readonly SearchTerm[] | undefined): Record<string, string> {
  if (search === undefined) return {};
  const values: Record<string, string> = { searchIds: '[]' };
  orderedTerms(search).forEach((term, i) => (values[`search${i}`] = `***=${term.text}`));
  return values;
}

/**
 * The search's condition on a list's posts, from the values of
 * `searchValues` (`at` reads one by name). PostgreSQL: a case-insensitive
 * match of the literal term (`~*`), which the trigram indexes answer as they
 * do `ILIKE '%term%'`, and which takes time in proportion to the text where
 * `ILIKE` can take its length times the term's (seconds for a 200-character
 * term over posts of one repeated letter).
 */
export function searchCondition(
  db: Db,
  eb: PostsEb,
  search: readonly SearchTerm[],
  at: (name: string) => string | number,
): Expression<SqlBool> {
  if (onSqlite(db)) return sql<SqlBool>`${eb.ref('posts.id')} in (select value from json_each(${at('searchIds')}))`;
  return eb.and(
    orderedTerms(search).map((term, i) => {
      const pattern = at(`search${i}`) as string;
      const found = eb.or(COLUMNS.map((column) => eb(`posts.${column}`, '~*', pattern)));
      return term.exclude ? eb.not(found) : found;
    }),
  );
}

/** The distinct three-character pieces of the terms a post must contain, each as an FTS5 string, joined by AND; undefined when none has three characters. */
function trigramQuery(terms: readonly SearchTerm[]): string | undefined {
  const pieces = new Set<string>();
  for (const term of terms) {
    if (term.exclude) continue;
    // As given: the tokenizer folds the case of these pieces as it folded the posts'.
    const chars = [...term.text];
    for (let i = 0; i + 3 <= chars.length; i++) pieces.add(chars.slice(i, i + 3).join(''));
  }
  if (pieces.size === 0) return undefined;
  return [...pieces].map((piece) => `"${piece.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * The searches' turns: one search at a time in the process, each caller
 * (client address, or /64) holding one place in the line (fairTurns).
 */
const turns = fairTurns((reason) => new StoreBusyError(`search: ${reason}`));

/** Who asks when a query does not say (an in-process caller: the admin command, a test's store). */
const NO_CALLER = '';

/**
 * SQLite: the IDs (a JSON array) of the site's posts of the list's types and
 * statuses that `search` matches, found as the module's comment says: one
 * search at a time in the process, fair between callers, each step after
 * the event loop has served what waits. Throws `StoreBusyError` when the
 * search has not ended within `budgetMs` (waiting included).
 */
export async function matchingIds(
  db: Db,
  query: PostListQuery & { search: readonly SearchTerm[] },
  budgetMs: number,
  now: () => number = performance.now.bind(performance),
): Promise<string> {
  const deadline = now() + budgetMs;
  const inTime = () => {
    if (now() > deadline) throw new StoreBusyError(`search over its budget of ${budgetMs} ms`);
  };
  const terms = query.search;
  const pieces = trigramQuery(terms);
  const passTurn = await turns.take(query.caller ?? NO_CALLER, deadline - now());
  try {
    await served();
    inTime();
    let candidates = db
      .selectFrom('posts')
      .select('posts.id')
      .where('posts.site_id', '=', query.siteId)
      .where('posts.type', 'in', query.types)
      .where('posts.status', 'in', query.statuses);
    if (pieces !== undefined)
      candidates = candidates.where(
        sql<SqlBool>`posts.id in (select rowid from posts_search where posts_search match ${pieces})`,
      );
    const ids = (await candidates.execute()).map((row) => row.id);
    const matched: number[] = [];
    for (let start = 0; start < ids.length; start += SLICE_POSTS) {
      await served();
      inTime();
      const rows = await db
        .selectFrom('posts')
        .select('posts.id')
        .where('posts.id', 'in', ids.slice(start, start + SLICE_POSTS))
        .where((eb) =>
          eb.and(
            terms.map((term) => {
              const found = eb.or(
                COLUMNS.map((column) =>
                  eb(sql`instr(lower(${eb.ref(`posts.${column}`)}), lower(${term.text}))`, '>', 0),
                ),
              );
              return term.exclude ? eb.not(found) : found;
            }),
          ),
        )
        .execute();
      for (const row of rows) matched.push(row.id);
    }
    return JSON.stringify(matched);
  } finally {
    passTurn();
  }
}

/**
 * PostgreSQL: runs `work` (a list's statements with the search's condition)
 * in the search's turn, as SQLite's searches take theirs: one search at a
 * time per process, so a flood of searches keeps one of the server's cores
 * busy, not all of them; throws `StoreBusyError` when the turn does not come
 * within `budgetMs` (each statement is bounded by the statement timeout).
 */
export async function inSearchTurn<T>(
  caller: string | undefined,
  budgetMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const passTurn = await turns.take(caller ?? NO_CALLER, budgetMs);
  try {
    return await work();
  } finally {
    passTurn();
  }
}

/** Whether a list's search is found by `matchingIds` before its statement (SQLite) or by the statement itself (PostgreSQL). */
export function searchesBefore(db: Db): boolean {
  return onSqlite(db);
}
