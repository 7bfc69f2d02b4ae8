/**
 * The mock's paging of a post list (scripts/mock/front.ts applies it to
 * every operation whose contract declares `page_handle`): the example's
 * posts are the site's posts, and each request gets the page of them it
 * asks for, by the server's rules (`src/services/publishing/domain/list.ts`):
 * `number` (PHP's `(int)`; below 1 the default), `page` (wins) or `offset`,
 * or after `page_handle`; `order` and `order_by` with ties by ID in the same
 * direction; `found` counts the posts from the handle on (all without one);
 * `meta.next_page` only on a first page with posts when more follow. So a
 * client that follows `next_page` until it is absent sees each post once and
 * stops. The mock filters nothing (`status`, `search`, terms): every example
 * post matches.
 */
import { phpInt } from '../../src/services/publishing/http/phpInt.js';

type Post = Record<string, unknown>;
type Query = Record<string, string | string[]>;

const ORDER_BY = ['date', 'modified', 'title', 'comment_count', 'ID'] as const;
type OrderBy = (typeof ORDER_BY)[number];

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value.at(-1) : value);

/** A post's sort value, as the list orders by it (a key the example's post lacks sorts as the empty value). */
function sortValue(post: Post, orderBy: OrderBy): string | number {
  if (orderBy === 'ID') return Number(post.ID);
  if (orderBy === 'comment_count')
    return Number((post.discussion as { comment_count?: number } | undefined)?.comment_count ?? 0);
  const value = post[orderBy];
  if (orderBy === 'title') return typeof value === 'string' ? value : '';
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? 0 : time;
}

/** The handle's value as the server writes it: the post's own text for a date or a title, the number otherwise. */
function handleValue(post: Post, orderBy: OrderBy): string {
  if (orderBy === 'date' || orderBy === 'modified' || orderBy === 'title')
    return typeof post[orderBy] === 'string' ? (post[orderBy] as string) : '';
  return String(sortValue(post, orderBy));
}

/** The page of `list`'s posts the query asks for, with `found` and `meta.next_page` as the server answers them. */
export function pageOfPosts(
  list: { found?: number; posts: Post[]; meta?: Record<string, unknown> },
  query: Query,
  defaultNumber: number,
) {
  const asked = phpInt(one(query.number) ?? '');
  const number = asked >= 1 ? asked : defaultNumber;
  const pageParam = one(query.page);
  const pageNumber = pageParam === undefined ? undefined : Math.max(1, phpInt(pageParam));
  const offset = pageNumber === undefined ? Math.max(0, phpInt(one(query.offset) ?? '0')) : (pageNumber - 1) * number;
  const orderBy = (ORDER_BY as readonly string[]).includes(one(query.order_by) ?? '')
    ? (one(query.order_by) as OrderBy)
    : 'date';
  const direction = one(query.order) === 'ASC' ? 1 : -1;
  const compare = (a: Post, b: Post) => {
    const [x, y] = [sortValue(a, orderBy), sortValue(b, orderBy)];
    const byValue =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x) < String(y)
          ? -1
          : String(x) > String(y)
            ? 1
            : 0;
    return direction * (byValue || Number(a.ID) - Number(b.ID));
  };
  let posts = [...list.posts].sort(compare);
  const handle = one(query.page_handle);
  if (handle !== undefined) {
    const parsed = new URLSearchParams(handle);
    const value = parsed.get('value');
    const id = Number(parsed.get('id'));
    // A handle that names no position is ignored, as on the server.
    if (value !== null && Number.isSafeInteger(id) && id >= 0) {
      const position: Post = {
        ID: id,
        [orderBy === 'comment_count' ? 'discussion' : orderBy]:
          orderBy === 'comment_count' ? { comment_count: Number(value) } : orderBy === 'ID' ? id : value,
      };
      posts = posts.filter((post) => compare(post, position) > 0);
    }
  }
  const page = posts.slice(offset, offset + number);
  const meta: Record<string, unknown> = { ...list.meta };
  delete meta.next_page;
  const last = page.at(-1);
  if (offset === 0 && last && posts.length > page.length)
    meta.next_page = `value=${encodeURIComponent(handleValue(last, orderBy))}&id=${String(last.ID)}`;
  return { found: posts.length, posts: page, ...(Object.keys(meta).length ? { meta } : {}) };
}
