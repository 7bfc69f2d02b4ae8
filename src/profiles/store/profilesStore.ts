import type { ProfileLookup } from '../domain/identifier.js';
import type { Profile } from '../domain/profile.js';

/**
 * The profiles store: what the handlers, the admin command line and (later)
 * the developer dashboard need, whatever the backend. Implementations:
 * `kysely/` (SQLite and PostgreSQL).
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
   * Creates or replaces each owner's profile and avatar image (creating the
   * account when needed; no image removes the old one), all in one transaction: either every profile is written or
   * none is. Throws `SlugInUseError` when a slug belongs to another account.
   */
  saveProfiles(profiles: readonly OwnedProfile[]): Promise<{ created: number; updated: number }>;
  countProfiles(): Promise<number>;
  /** The bytes of the uploaded avatar image with this digest, or undefined when no profile has it (any more). */
  readAvatarImage(digest: string): Promise<Buffer | undefined>;
}

/** Accounts, their applications and the applications' API keys. */
export interface ApiKeyRegistry {
  /**
   * The key with this hash and the account it belongs to, unless it is
   * unknown or revoked. Records the use (`last_used_at`, at most once a
   * minute per key). Never cached, so a revocation takes effect at once.
   */
  findActiveKey(keyHash: string): Promise<{ keyId: string; accountId: string } | undefined>;
  /** Creates (or reuses) the account and the application by name, and adds a key to it, in one transaction. */
  createApiKey(request: NewApiKey): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<'revoked' | 'already-revoked' | 'unknown'>;
  /** Every key of the account's applications, oldest first; undefined when there is no such account. */
  listApiKeys(email: string): Promise<ApiKeyListing[] | undefined>;
}

export interface NewApiKey {
  email: string;
  application: { name: string; description: string; websiteUrl: string };
  key: { hash: string; displayPrefix: string };
}

export interface CreatedApiKey {
  keyId: string;
  accountCreated: boolean;
  applicationId: string;
  applicationCreated: boolean;
}

export interface ApiKeyListing {
  id: string;
  application: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
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
