import type { Post } from '../../../../generated/publishing/types.gen.js';
import { keptUnderMark } from '../keptUnderMark.js';
import type { PostContext } from '../domain/context.js';
import type { PostRecord, SiteRecord } from '../domain/records.js';

/**
 * Post objects as presented to a caller without a token, kept by this
 * instance under the store's change mark (`PublishingStore.changeMark`)
 * read before the post was: the same post, site record and context under the
 * same mark present the same object, since everything the object shows comes
 * from the store, the site record and the context. A write anywhere in the
 * store changes the mark, and what was kept under the old one is never
 * found again (and ages out). Kept objects are frozen: every answer that
 * holds one shares it.
 */
export interface PresentedPosts {
  /** The kept presentation of the post, if any. */
  find(key: PresentedKey): Post | undefined;
  /** Keeps a presentation (frozen) and hands it back. */
  keep(key: PresentedKey, post: Post): Post;
}

/** What a presentation is kept by. */
export interface PresentedKey {
  /** The store's change mark, read before the post and what surrounds it. */
  mark: string;
  site: SiteRecord;
  post: PostRecord;
  context: PostContext;
}

/** Kept presentations of at most `maxEntries` posts (the least recently used go first); undefined for 0, which keeps none. */
export function presentedPosts(maxEntries: number): PresentedPosts | undefined {
  const kept = keptUnderMark<Post>(maxEntries);
  if (!kept) return undefined;
  // Each site record the sites cache hands out (a new one once it reads the site again) gets a number of its own.
  const siteNumbers = new WeakMap<SiteRecord, number>();
  let sites = 0;
  const keyOf = ({ site, post, context }: PresentedKey) => {
    let number = siteNumbers.get(site);
    if (number === undefined) siteNumbers.set(site, (number = ++sites));
    return `${number}\u0000${post.id}\u0000${context}`;
  };
  return {
    find: (key) => kept.find(key.mark, keyOf(key)),
    keep: (key, post) => kept.keep(key.mark, keyOf(key), post),
  };
}
