import { cachedLookups } from '../../../platform/store/lookupCache.js';
import type { PublishingStore, SiteRef } from './publishingStore.js';

/** Most sites, and most (site, user) role capabilities, one instance remembers. */
const SITE_CACHE_ENTRIES = 10_000;

/** A site reference as a cache key, and back. */
const siteKey = (ref: SiteRef) => (ref.kind === 'id' ? `id:${ref.id}` : `address:${ref.domain}\u0000${ref.path}`);
function siteRefOf(key: string): SiteRef {
  if (key.startsWith('id:')) return { kind: 'id', id: Number(key.slice(3)) };
  const [domain = '', path = ''] = key.slice('address:'.length).split('\u0000');
  return { kind: 'address', domain, path };
}

/**
 * The store, with the two reads every post request opens with remembered by
 * this instance for `ttlMs` (`SITE_CACHE_MS`): the site a `site` path value
 * names (an unknown one too) and a user's role capabilities on a site. Two
 * statements fewer on each post request (a network round trip each on
 * PostgreSQL). Nothing in this API changes sites or roles; a change made in
 * the store applies on each instance within `ttlMs`. With `ttlMs` 0 the
 * store itself. What is remembered is shared by requests and never changed:
 * site records are frozen.
 */
export function cachedSites(store: PublishingStore, ttlMs: number): PublishingStore {
  if (ttlMs <= 0) return store;
  const options = { ttlMs, maxEntries: SITE_CACHE_ENTRIES };
  const sites = cachedLookups(async (key: string) => {
    const site = await store.findSite(siteRefOf(key));
    return site && Object.freeze({ ...site, extraPostTypes: Object.freeze([...site.extraPostTypes]) as string[] });
  }, options);
  const capabilities = cachedLookups((key: `${number}:${number}`) => {
    const [siteId, userId] = key.split(':').map(Number) as [number, number];
    return store.capabilitiesOf(siteId, userId);
  }, options);
  // Every other method (and field) is the store's own, reached through the prototype.
  const cached = Object.create(store) as PublishingStore;
  cached.findSite = (ref) => {
    const key = siteKey(ref);
    const known = sites.known(key);
    return known ? Promise.resolve(known.value) : sites.lookup(key);
  };
  cached.capabilitiesOf = (siteId, userId) => capabilities.lookup(`${siteId}:${userId}`);
  return cached;
}
