import type { AccountsTables } from '../../../accounts/tables.js';

/**
 * Tables of the profiles service. Portable between SQLite and PostgreSQL:
 * text ids, booleans as integer 0/1, timestamps as ISO-8601 UTC text,
 * nested lists as JSON text (a profile is always read whole).
 */
export interface ProfilesTables {
  profiles: ProfilesTable;
  profile_avatars: ProfileAvatarsTable;
  profile_verified_accounts: ProfileVerifiedAccountsTable;
}

/** The tables the profiles service reads and writes: its own and the accounts'. */
export type ProfilesDatabase = AccountsTables & ProfilesTables;

/** The profile of an account (one per account). */
export interface ProfilesTable {
  account_id: string;
  slug: string;
  display_name: string;
  avatar_alt_text: string;
  location: string;
  description: string;
  job_title: string;
  company: string;
  pronunciation: string;
  pronouns: string;
  first_name: string;
  last_name: string;
  timezone: string;
  /** JSON `Language[]`, in the owner's order. */
  languages: string;
  /** JSON `Interest[]`. */
  interests: string;
  /** JSON `Interest[]`: the interests inferred for the profile, not added by its owner. */
  inferred_interests: string;
  /** 1 when the profile is an organization's. */
  is_organization: number;
  header_image: string;
  background_color: string;
  /** JSON `Link[]`. */
  links: string;
  /** JSON `ContactInfo` (each detail with its public flag). */
  contact_info: string;
  /** 1 when the owner made payments public. */
  payments_public: number;
  /** JSON `Link[]`. */
  payment_links: string;
  /** JSON `CryptoWallet[]`. */
  crypto_wallets: string;
  /** JSON `GalleryImage[]`. */
  gallery: string;
  /** JSON `VerifiedAccount[]`, hidden ones included. */
  verified_accounts: string;
  last_profile_edit: string | null;
  registration_date: string | null;
  updated_at: string;
}

/**
 * The avatar image a profile's owner uploaded (at most one per profile), as
 * the import received it; sizes of it are drawn on request. Apart from the
 * profile row, so a profile lookup never reads image bytes.
 */
export interface ProfileAvatarsTable {
  account_id: string;
  /** The image file's bytes (PNG, JPEG, WebP or GIF). */
  image: Buffer;
  /** SHA-256 hex of `image`: names the image in caches. */
  digest: string;
  updated_at: string;
}

/**
 * The visible verified accounts of every profile, by service and username:
 * the index searches by verified account read (hidden accounts are never
 * written here, so they are never found). Written with the profile.
 */
export interface ProfileVerifiedAccountsTable {
  account_id: string;
  /** The account's position among the profile's verified accounts, from 0. */
  position: number;
  service_type: string;
  /** Lower-case (`accountUsername`). */
  username: string;
}
