import type { PostRecord } from '../domain/records.js';
import type { FlowDeps } from './deps.js';

/** The stores a scheduled post's publication uses: where reads go, and the primary it is written to (`store` when none). */
export type ScheduleDeps = Pick<FlowDeps, 'store' | 'primary'>;

/**
 * Publishes the site's scheduled posts whose date has come, as the
 * platform's scheduler does when it next runs: checked with one index seek
 * on the read store, or none while the store's change mark (`mark`, read
 * by the caller first) holds and the earliest scheduled date has not come;
 * written (one conditional update) only when one is due.
 */
export async function publishDuePosts(
  deps: ScheduleDeps,
  siteId: number,
  types: readonly string[],
  mark: string | undefined,
  now = new Date(),
): Promise<void> {
  if (await deps.store.hasDuePosts(siteId, types, now, mark))
    await (deps.primary ?? deps.store).publishDuePosts(siteId, now);
}

/** A post as read, published first when it is scheduled and its date has come (no other post is read or written). */
export async function publishedWhenDue(deps: ScheduleDeps, post: PostRecord, now = new Date()): Promise<PostRecord> {
  if (post.status !== 'future' || Date.parse(post.date) > now.getTime()) return post;
  await (deps.primary ?? deps.store).publishDuePosts(post.siteId, now);
  return { ...post, status: 'publish' };
}
