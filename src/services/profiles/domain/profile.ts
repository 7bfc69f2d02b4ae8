/**
 * A profile as the owner keeps it: every field, including the parts the
 * owner did not make public. What a caller may see of it is decided by
 * `presentProfile`, never by the store.
 */
export interface Profile {
  /** SHA-256 hex of the owner's primary email (`sha256(email.trim().toLowerCase())`). */
  emailHash: string;
  /** URL slug, lower case; never shaped like an email hash. */
  slug: string;
  displayName: string;
  /**
   * SHA-256 hex of the owner's uploaded avatar image, or null when there is
   * none (the avatar endpoint then serves a default image). The image itself
   * is read only when a size of it is drawn.
   */
  avatarDigest: string | null;
  avatarAltText: string;
  location: string;
  description: string;
  jobTitle: string;
  company: string;
  pronunciation: string;
  pronouns: string;
  firstName: string;
  lastName: string;
  /** IANA time zone name, or `""`. */
  timezone: string;
  /** In the owner's order; at most one is primary. */
  languages: Language[];
  interests: Interest[];
  /** Interests inferred for the profile from what is known of it (not added by its owner); shown only by their own operation. */
  inferredInterests: Interest[];
  isOrganization: boolean;
  /** CSS `background` value of the profile card's header (`url('…') …`), or `""`. */
  headerImage: string;
  /** CSS colour or gradient, or `""`. */
  backgroundColor: string;
  links: Link[];
  contactInfo: ContactInfo;
  payments: Payments;
  gallery: GalleryImage[];
  /** Every verified account, hidden ones included, in the owner's order. */
  verifiedAccounts: VerifiedAccount[];
  /** UTC date-time without fractions (`2026-10-01T12:00:00Z`), or null when unknown. */
  lastProfileEdit: string | null;
  /** Year-month-day, or null when unknown. */
  registrationDate: string | null;
}

export interface Link {
  label: string;
  url: string;
}

export interface Language {
  /** BCP 47 language code, e.g. `en` or `pt-BR`. */
  code: string;
  name: string;
  isPrimary: boolean;
}

export interface Interest {
  id: number;
  name: string;
}

export interface CryptoWallet {
  label: string;
  address: string;
}

export interface GalleryImage {
  url: string;
  altText?: string;
}

export interface VerifiedAccount {
  serviceType: string;
  serviceLabel: string;
  /**
   * The icon an earlier release stored with the account (a `data:` URL),
   * kept only for a service the list of services no longer has: the list's
   * services' icons are its own (`serviceIconUrl`).
   */
  serviceIcon?: string | undefined;
  url: string;
  /**
   * The owner's username on the service, lower-case, as searches find it
   * (`accountUsername`); absent on accounts stored by earlier releases,
   * whose username is read from their URL.
   */
  username?: string;
  /** Hidden accounts are counted in `number_verified_accounts` but never listed. */
  hidden: boolean;
}

/** The kinds of contact detail a profile can carry (the API's `contact_info` member names). */
export const CONTACT_FIELDS = ['home_phone', 'work_phone', 'cell_phone', 'email', 'contact_form', 'calendar'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** One contact detail and whether its owner made it public. */
export interface ContactDetail {
  value: string;
  public: boolean;
}

export type ContactInfo = Partial<Record<ContactField, ContactDetail>>;

/** Payment links and wallets; shown to keyed callers only when the owner made them public. */
export interface Payments {
  public: boolean;
  links: Link[];
  cryptoWallets: CryptoWallet[];
}
