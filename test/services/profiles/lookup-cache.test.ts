// @store-independent
import { describe, expect, it } from 'vitest';
import type { ProfileLookup } from '../../../src/services/profiles/domain/identifier.js';
import type { Profile } from '../../../src/services/profiles/domain/profile.js';
import { cachedProfileDirectory } from '../../../src/services/profiles/store/cachedProfileDirectory.js';
import { shapedLookups, type ProfileDirectory } from '../../../src/services/profiles/domain/profilesStore.js';

/** A directory that counts its lookups and answers a fresh profile object each time. */
function countingDirectory(fail = false) {
  const counted = { lookups: 0, saves: 0 };
  const directory: ProfileDirectory = {
    async findProfile(lookup) {
      counted.lookups++;
      if (fail) throw new Error('store down');
      return lookup.by === 'slug' && lookup.value === 'alex' ? ({ slug: 'alex' } as Profile) : undefined;
    },
    async saveProfiles() {
      counted.saves++;
      return { created: 0, updated: 0 };
    },
    countProfiles: async () => 0,
    readAvatarImage: async () => undefined,
    searchByVerifiedAccount: async () => ({ profiles: [], total: 0 }),
  };
  return { directory, counted };
}

const alex: ProfileLookup = { by: 'slug', value: 'alex' };
const nobody: ProfileLookup = { by: 'slug', value: 'nobody' };

describe('the lookup cache', () => {
  it('reuses a profile, and its absence, read again, for the configured lifetime only', async () => {
    let now = 1_000;
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 500, maxEntries: 10, now: () => now });

    // Read once, a lookup is not kept; read again within its lifetime, it is.
    await cached.findProfile(alex);
    const first = await cached.findProfile(alex);
    expect(await cached.findProfile(alex)).toBe(first);
    expect(await cached.findProfile(nobody)).toBeUndefined();
    expect(await cached.findProfile(nobody)).toBeUndefined();
    expect(await cached.findProfile(nobody)).toBeUndefined();
    expect(counted.lookups).toBe(4);

    now += 499;
    await cached.findProfile(alex);
    expect(counted.lookups).toBe(4);
    now += 2;
    // Read within the last lifetime or two: kept at once.
    expect(await cached.findProfile(alex)).not.toBe(first);
    await cached.findProfile(alex);
    expect(counted.lookups).toBe(5);
  });

  it('keeps an identifier read once only while its read is in flight', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
    const other: ProfileLookup = { by: 'slug', value: 'other' };
    await cached.findProfile(alex);
    expect(cached.knownProfile?.(alex)).toBeUndefined();
    await cached.findProfile(alex);
    expect(cached.knownProfile?.(alex)).toBeDefined();
    await cached.findProfile(other);
    expect(cached.knownProfile?.(other)).toBeUndefined();
    expect(counted.lookups).toBe(3);
  });

  it('lets concurrent lookups of the same identifier share one query', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
    const [a, b] = await Promise.all([cached.findProfile(alex), cached.findProfile(alex)]);
    expect(a).toBe(b);
    expect(counted.lookups).toBe(1);
  });

  it('does not remember a failed lookup', async () => {
    const { directory, counted } = countingDirectory(true);
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
    await expect(cached.findProfile(alex)).rejects.toThrow('store down');
    await expect(cached.findProfile(alex)).rejects.toThrow('store down');
    expect(counted.lookups).toBe(2);
  });

  it('forgets everything when profiles are saved through it', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
    await cached.findProfile(alex);
    await cached.saveProfiles([]);
    await cached.findProfile(alex);
    expect(counted).toEqual({ lookups: 2, saves: 1 });
  });

  it('keeps at most maxEntries lookups, dropping the least recently used', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 2 });
    // Each read twice: kept from its second read.
    for (const value of ['a', 'b', 'c']) {
      await cached.findProfile({ by: 'slug', value });
      await cached.findProfile({ by: 'slug', value });
    }
    await cached.findProfile({ by: 'slug', value: 'c' });
    expect(counted.lookups).toBe(6);
    await cached.findProfile({ by: 'slug', value: 'a' });
    expect(counted.lookups).toBe(7);
  });

  it('is off with a lifetime of 0', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 0, maxEntries: 10 });
    await cached.findProfile(alex);
    await cached.findProfile(alex);
    expect(counted.lookups).toBe(2);
  });

  it('never asks the store about an identifier that can match nothing', async () => {
    const { directory, counted } = countingDirectory();
    const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
    expect(await cached.findProfile({ by: 'nothing' })).toBeUndefined();
    expect(counted.lookups).toBe(0);
  });

  describe('kept shapes (`shaped`)', () => {
    /** A shape that counts its makings and holds nothing of the profile but its slug. */
    const counting = () => {
      const made = { count: 0 };
      const shape = (profile: Profile) => {
        made.count++;
        return { shown: profile.slug };
      };
      return { made, shape };
    };

    it('keeps the shape, not the profile: read again, neither the store nor the shape runs, nor is the profile kept', async () => {
      const { directory, counted } = countingDirectory();
      const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
      const { made, shape } = counting();
      const shown = shapedLookups(cached, shape);
      await shown.find(alex);
      const kept = await shown.find(alex);
      expect(kept).toEqual({ shown: 'alex' });
      expect(shown.known(alex)).toEqual({ value: kept });
      expect(shown.known(alex)?.value).toBe(kept);
      expect(await shown.find(alex)).toBe(kept);
      expect(counted.lookups).toBe(2);
      expect(made.count).toBe(2);
      // The profiles' own cache was not filled by the shape's reads.
      expect(cached.knownProfile?.(alex)).toBeUndefined();
      expect(await shown.find(nobody)).toBeUndefined();
      expect(await shown.find(nobody)).toBeUndefined();
      expect(shown.known(nobody)).toEqual({ value: undefined });
      expect(shown.known({ by: 'nothing' })).toEqual({ value: undefined });
      expect(counted.lookups).toBe(4);
    });

    it('keeps each shape apart from the other shapes and from the profiles', async () => {
      const { directory, counted } = countingDirectory();
      const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
      const one = shapedLookups(cached, counting().shape);
      const other = shapedLookups(cached, (profile) => ({ other: profile.slug }));
      await one.find(alex);
      await one.find(alex);
      expect(other.known(alex)).toBeUndefined();
      expect(await other.find(alex)).toEqual({ other: 'alex' });
      expect(counted.lookups).toBe(3);
    });

    it('forgets every kept shape when profiles are saved through the directory', async () => {
      const { directory, counted } = countingDirectory();
      const cached = cachedProfileDirectory(directory, { ttlMs: 1000, maxEntries: 10 });
      const shown = shapedLookups(cached, counting().shape);
      await shown.find(alex);
      await shown.find(alex);
      expect(shown.known(alex)).toBeDefined();
      await cached.saveProfiles([]);
      expect(shown.known(alex)).toBeUndefined();
      await shown.find(alex);
      expect(counted.lookups).toBe(3);
    });

    it('lets a shape go after its lifetime', async () => {
      let now = 1_000;
      const { directory } = countingDirectory();
      const cached = cachedProfileDirectory(directory, { ttlMs: 500, maxEntries: 10, now: () => now });
      const shown = shapedLookups(cached, counting().shape);
      await shown.find(alex);
      await shown.find(alex);
      expect(shown.known(alex)).toBeDefined();
      now += 501;
      expect(shown.known(alex)).toBeUndefined();
    });

    it('shapes every profile found when the cache is off, or the directory has none', async () => {
      const { directory, counted } = countingDirectory();
      for (const plain of [cachedProfileDirectory(directory, { ttlMs: 0, maxEntries: 10 }), directory]) {
        const { made, shape } = counting();
        const shown = shapedLookups(plain, shape);
        expect(await shown.find(alex)).toEqual({ shown: 'alex' });
        expect(await shown.find(alex)).toEqual({ shown: 'alex' });
        expect(shown.known(alex)).toBeUndefined();
        expect(await shown.find(nobody)).toBeUndefined();
        expect(made.count).toBe(2);
      }
      expect(counted.lookups).toBe(6);
    });
  });
});
