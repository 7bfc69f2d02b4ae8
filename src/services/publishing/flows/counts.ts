import type { PostCounts, StatusCounts } from '../../../../generated/publishing/types.gen.js';
import { countsNeedToken, unknownCountedType } from '../errors.js';
import { exposes, openSite, type Viewer } from '../domain/access.js';
import { publishDuePosts, type ScheduleDeps } from './schedule.js';

/** Statuses counted for a caller who may edit posts on the site; others see only `publish`. */
const EDITOR_STATUSES: ReadonlySet<string> = new Set(['publish', 'draft', 'future', 'pending', 'private', 'trash']);
const PUBLIC_STATUSES: ReadonlySet<string> = new Set(['publish']);

export interface CountsRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  type: string;
  viewer: Viewer;
  /** The `author` query parameter: a user whose counts are answered too. */
  author?: number;
}

/**
 * A site's posts of a type counted by status, as the platform's
 * `post-counts` answers them: a token is needed first; then site and type;
 * `all` and `mine` (and `author` when asked for), each naming only the
 * statuses with posts, and only `publish` unless the caller may edit posts
 * on the site (`edit_posts`). Read from the counts the store keeps as posts
 * are written, never from the posts themselves.
 */
export async function countPosts(deps: ScheduleDeps, request: CountsRequest): Promise<PostCounts> {
  const { store } = deps;
  const { viewer } = request;
  if (!viewer.loggedIn) throw countsNeedToken();
  // Before anything is read: what is kept under it is as new as what follows.
  const mark = store.changeMark();
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  if (!exposes(site, request.type)) throw unknownCountedType();
  await publishDuePosts(deps, site.id, [request.type], mark);
  const shown = roleCapabilities.has('edit_posts') ? EDITOR_STATUSES : PUBLIC_STATUSES;
  const counted = (rows: { status: string; n: number }[]): StatusCounts =>
    Object.fromEntries(rows.filter((row) => row.n > 0 && shown.has(row.status)).map((row) => [row.status, row.n]));

  const rows = await store.postCounts(site.id, request.type, viewer.id);
  const counts: PostCounts['counts'] = {
    all: counted(rows.map((row) => ({ status: row.status, n: row.all }))),
    mine: counted(rows.map((row) => ({ status: row.status, n: row.mine }))),
  };
  if (request.author !== undefined) {
    const authored = await store.postCounts(site.id, request.type, request.author);
    counts.author = counted(authored.map((row) => ({ status: row.status, n: row.mine })));
  }
  return { counts };
}
