import { cachedLookups } from '../../../platform/store/lookupCache.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import type { SiteRef } from '../domain/siteRef.js';

/** Most sites, and most (site, user) role capabilities, one instance remembers. */
const SITE_CACHE_ENTRIES = 10_000;

/** A site reference as a cache key. */
const siteKey = (ref: SiteRef) => (ref.kind === 'id' ? `id:${ref.id}` : `address:${ref.domain}\u0000${ref.path}`);

/**
 * The store, with the two reads every post request opens with remembered by
 * this instance for `ttlMs` (`SITE_CACHE_MS`): the site a `site` path value
 * names (an unknown one too) and a user's role capabilities on a site. Two
 * statements fewer on each post request (a network round trip each on
 * PostgreSQL). Nothing in this API changes sites or roles; a change made in
 * the store applies on each instance within `ttlMs`. With `ttlMs` 0 the
 * store itself. What is remembered is shared by requests and never changed:
 * site records are frozen. `now` is a milliseconds clock (tests pass their
 * own).
 */
export function cachedSites(store: PublishingStore, ttlMs: number, now?: () => number): PublishingStore {
  if (ttlMs <= 0) return store;
  const options = { ttlMs, maxEntries: SITE_CACHE_ENTRIES, now };
  const sites = cachedLookups(
    async (ref: SiteRef) => {
      const site = await store.findSite(ref);
      return site && Object.freeze({ ...site, extraPostTypes: Object.freeze([...site.extraPostTypes]) as string[] });
    },
    { ...options, keyOf: siteKey },
  );
  const capabilities = cachedLookups(
    (of: { siteId: number; userId: number }) => store.capabilitiesOf(of.siteId, of.userId),
    {
      ...options,
      keyOf: (of) => `${of.siteId}:${of.userId}`,
    },
  );
  // Every other method (and field) is the store's own, reached through the prototype.
  const cached = Object.create(store) as PublishingStore;
  cached.findSite = (ref) => sites.lookup(ref);
  cached.capabilitiesOf = (siteId, userId) => capabilities.lookup({ siteId, userId });
  return cached;
}
