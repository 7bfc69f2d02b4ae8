import type { ChangeMark } from '../../../platform/store/database.js';
import { cachedLookups, type LookupCache } from '../../../platform/store/lookupCache.js';
import type { ProfileLookup } from '../domain/identifier.js';
import { findShaped, type ProfileDirectory } from '../domain/profilesStore.js';
import type { Profile } from '../domain/profile.js';

export interface LookupCacheOptions {
  /** How long a looked-up profile (or its absence) is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Most lookups kept; the least recently used is dropped first; 0 turns the cache off. */
  maxEntries: number;
  /** Milliseconds clock (tests pass their own). */
  now?: () => number;
  /** The store's change mark (SQLite): a profile is reused past `ttlMs` while nothing was written since its read. */
  changeMark?: ChangeMark;
}

/** What an identifier that can match nothing finds, known without asking. */
const NOTHING = { value: undefined };

/** A lookup's cache key, `by:value` (no `by` holds a colon; `nothing` is answered before the cache). */
const keyOf = (lookup: ProfileLookup) => (lookup.by === 'nothing' ? lookup.by : `${lookup.by}:${lookup.value}`);

/**
 * A short-lived in-process cache in front of `findProfile` (see
 * `cachedLookups`): a profile (or the absence of one) found by the same
 * identifier is reused for `ttlMs`, so a burst of lookups costs two queries
 * (an identifier is kept from its second read within a lifetime or two: a
 * mix of many profiles each read once keeps none of them, see
 * docs/decisions/keep-repeated-lookups.md). A
 * change made by another process shows within `ttlMs`; one made through this
 * directory clears the cache at once. On SQLite (`changeMark`), a profile
 * is reused past `ttlMs` for as long as nothing was written to the store
 * since it was read. API keys are never cached here (they
 * have their own cache). What an operation answers of a profile may be kept
 * instead of the profile (`shaped`: the presented answer, a fraction of the
 * profile), on the same terms, each shape in a cache of its own.
 */
export function cachedProfileDirectory(directory: ProfileDirectory, options: LookupCacheOptions): ProfileDirectory {
  if (options.ttlMs <= 0 || options.maxEntries <= 0) return directory;
  /** The caches of this directory: its profiles', and each shape's (`shaped`), all forgotten on a write through it. */
  const caches: Pick<LookupCache<ProfileLookup, unknown>, 'clear'>[] = [];
  /** Lookups of what `shape` makes of a profile, each kept as the profiles are (the store read directly, not through them). */
  const keptLookups = <T>(shape: (profile: Profile) => T) => {
    const cache = cachedLookups(findShaped(directory, shape), { ...options, keyOf, keepRepeatedOnly: true });
    caches.push(cache);
    return {
      known: (lookup: ProfileLookup) => (lookup.by === 'nothing' ? NOTHING : cache.known(lookup)),
      find: (lookup: ProfileLookup) => (lookup.by === 'nothing' ? Promise.resolve(undefined) : cache.lookup(lookup)),
    };
  };
  const profiles = keptLookups((profile) => profile);
  return {
    knownProfile: profiles.known,
    findProfile: profiles.find,
    shaped: keptLookups,
    async saveProfiles(records) {
      try {
        return await directory.saveProfiles(records);
      } finally {
        for (const cache of caches) cache.clear();
      }
    },
    countProfiles: () => directory.countProfiles(),
    // Searches are not kept: each page is one pair of indexed queries.
    searchByVerifiedAccount: (search) => directory.searchByVerifiedAccount(search),
    // Image bytes are not kept here: the avatar renderer keeps the sizes it drew.
    readAvatarImage: (digest) => directory.readAvatarImage(digest),
  };
}
