import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../../../../platform/answers/frozen.js';
import type { ChangeMark } from '../../../../platform/store/database.js';
import type { PostRecord } from '../../domain/records.js';

/**
 * Post records read under the store's change mark, kept by this instance so
 * a page read again under the same mark reads only its posts' IDs: while the
 * mark holds, no post changed. Frozen, as every reader shares them. The
 * same bound as the rendered post objects they serve
 * (`POST_RENDER_CACHE_ENTRIES`).
 */
export interface KeptPosts {
  /** The store's mark now (undefined: nothing may be kept or found). */
  mark: ChangeMark;
  find(mark: string, id: number): PostRecord | undefined;
  keep(mark: string, post: PostRecord): PostRecord;
}

/** Kept post records for a store with a change mark; undefined when it has none or `maxEntries` is 0. */
export function keptPosts(mark: ChangeMark | undefined, maxEntries: number): KeptPosts | undefined {
  if (!mark || maxEntries <= 0) return undefined;
  const kept = new LRUCache<string, PostRecord>({ max: maxEntries });
  return {
    mark,
    find: (at, id) => kept.get(`${at}\u0000${id}`),
    keep(at, post) {
      kept.set(`${at}\u0000${post.id}`, deepFreeze(post));
      return post;
    },
  };
}
