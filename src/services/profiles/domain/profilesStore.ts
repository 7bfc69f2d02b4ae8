import type { ApiKeyRegistry } from '../../../accounts/apiKeys.js';
import type { ProfileLookup } from './identifier.js';
import type { Profile } from './profile.js';

/**
 * The profiles store: what the handlers and the admin command line need,
 * whatever the backend. Implemented by `store/` (`kyselyProfilesStore.ts`:
 * SQLite and PostgreSQL).
 */
export interface ProfilesStore extends ProfileDirectory, ApiKeyRegistry {}

/** A profile's content as written by its owner; the email hash comes from the owner's email, the avatar digest from its image. */
export type ProfileContent = Omit<Profile, 'emailHash' | 'avatarDigest'>;

/** An uploaded avatar image: its bytes and their SHA-256 hex. */
export interface AvatarImage {
  bytes: Buffer;
  digest: string;
}

/** A profile with the primary email of the account that owns it, and its uploaded avatar image (null: none). */
export interface OwnedProfile {
  email: string;
  profile: ProfileContent;
  avatar: AvatarImage | null;
}

/** The profiles, by owner's email hash or slug. */
export interface ProfileDirectory {
  /** The profile an identifier names, or undefined (one indexed query). */
  findProfile(lookup: ProfileLookup): Promise<Profile | undefined>;
  /**
   * What `findProfile` would answer, when a cache in front of the store
   * already holds it (`{ value }`, the profile or undefined for none);
   * undefined when it must be asked. Lets a cached lookup be answered
   * without an asynchronous step.
   */
  knownProfile?(lookup: ProfileLookup): { value: Profile | undefined } | undefined;
  /**
   * Lookups of what `shape` makes of a profile (undefined: none), where a
   * cache in front of the store keeps the shape instead of the profile: a
   * presented answer is a fraction of the profile it was made from, so a hot
   * operation keeps many more of them in the same memory. Each call makes
   * lookups of their own (call it once per shape); without it,
   * `shapedLookups` shapes each profile found.
   */
  shaped?<T extends object>(shape: (profile: Profile) => T): ShapedLookups<T>;
  /**
   * Creates or replaces each owner's profile and avatar image (creating the
   * account when needed; no image removes the old one), all in one transaction: either every profile is written or
   * none is. Throws `SlugInUseError` when a slug belongs to another account.
   */
  saveProfiles(profiles: readonly OwnedProfile[]): Promise<{ created: number; updated: number }>;
  countProfiles(): Promise<number>;
  /**
   * The profiles with a visible verified account of this username
   * (lower-case), on `service` when given, by slug: `limit` of them from
   * `offset`, and how many there are in all (index-backed queries).
   */
  searchByVerifiedAccount(search: VerifiedAccountSearch): Promise<{ profiles: Profile[]; total: number }>;
  /** The bytes of the uploaded avatar image with this digest, or undefined when no profile has it (any more). */
  readAvatarImage(digest: string): Promise<Buffer | undefined>;
}

/** What a shape of the profile an identifier names is (see `ProfileDirectory.shaped`). */
export interface ShapedLookups<T> {
  /** The shape when a cache already holds it (`{ value }`, undefined for no profile); undefined when the store must be asked. */
  known(lookup: ProfileLookup): { value: T | undefined } | undefined;
  /** The shape of the profile found, or undefined for none. */
  find(lookup: ProfileLookup): Promise<T | undefined>;
}

/** The directory's kept lookups of `shape` (`shaped`), or, for a directory without, `shape` of each profile found. */
export function shapedLookups<T extends object>(
  directory: ProfileDirectory,
  shape: (profile: Profile) => T,
): ShapedLookups<T> {
  return directory.shaped?.(shape) ?? { known: () => undefined, find: findShaped(directory, shape) };
}

/** A read of what `shape` makes of the profile a lookup finds in `directory` (undefined: none). */
export const findShaped =
  <T>(directory: ProfileDirectory, shape: (profile: Profile) => T) =>
  async (lookup: ProfileLookup): Promise<T | undefined> => {
    const profile = await directory.findProfile(lookup);
    return profile && shape(profile);
  };

/** The shape `lookup` names: the kept one at once, without an asynchronous step, else the promise of its read. */
export function knownOrFound<T>(
  shaped: ShapedLookups<T>,
  lookup: ProfileLookup,
): T | undefined | Promise<T | undefined> {
  const known = shaped.known(lookup);
  return known ? known.value : shaped.find(lookup);
}

/** What a search by verified account asks for. */
export interface VerifiedAccountSearch {
  /** Lower-case. */
  username: string;
  service?: string;
  limit: number;
  offset: number;
}

/** A slug is already the slug of another account's profile. */
export class SlugInUseError extends Error {
  constructor(
    /** Position of the offending profile in the batch (0-based). */
    readonly index: number,
    readonly slug: string,
  ) {
    super(`slug "${slug}" belongs to another account's profile`);
    this.name = 'SlugInUseError';
  }
}
