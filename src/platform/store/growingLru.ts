/**
 * `LRUCache` options that bound a cache to `maxEntries` entries without
 * allocating for all of them up front: with `max`, lru-cache makes its key,
 * value, link (and, with a `ttl`, time) arrays `max` long when the cache is
 * built, so an empty cache already holds the memory of all its entries.
 * Counted as a size of 1 an entry, the same bound grows with what is kept
 * (docs/decisions/lazy-packages.md).
 */
export const growingToEntries = (maxEntries: number) => ({ maxSize: maxEntries, sizeCalculation: () => 1 }) as const;
