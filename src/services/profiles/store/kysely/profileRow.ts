import type { Selectable } from 'kysely';
import type { Profile } from '../../domain/profile.js';
import type { ProfileContent } from '../../domain/profilesStore.js';
import type { ProfilesTable } from '../tables.js';
import { sharingServiceText } from '../../domain/verifiedAccountServices.js';

/** The columns of a `profiles` row that hold a profile's content (all but the owner). */
export function profileColumns(profile: ProfileContent, updatedAt: string): Omit<ProfilesTable, 'account_id'> {
  return {
    slug: profile.slug,
    display_name: profile.displayName,
    avatar_alt_text: profile.avatarAltText,
    location: profile.location,
    description: profile.description,
    job_title: profile.jobTitle,
    company: profile.company,
    pronunciation: profile.pronunciation,
    pronouns: profile.pronouns,
    first_name: profile.firstName,
    last_name: profile.lastName,
    timezone: profile.timezone,
    languages: JSON.stringify(profile.languages),
    interests: JSON.stringify(profile.interests),
    inferred_interests: JSON.stringify(profile.inferredInterests),
    is_organization: profile.isOrganization ? 1 : 0,
    header_image: profile.headerImage,
    background_color: profile.backgroundColor,
    links: JSON.stringify(profile.links),
    contact_info: JSON.stringify(profile.contactInfo),
    payments_public: profile.payments.public ? 1 : 0,
    payment_links: JSON.stringify(profile.payments.links),
    crypto_wallets: JSON.stringify(profile.payments.cryptoWallets),
    gallery: JSON.stringify(profile.gallery),
    verified_accounts: JSON.stringify(profile.verifiedAccounts),
    last_profile_edit: profile.lastProfileEdit,
    registration_date: profile.registrationDate,
    updated_at: updatedAt,
  };
}

/** The profile a `profiles` row, its account's email hash and its avatar image's digest (null: none) describe. */
export function fromProfileRow(
  row: Selectable<ProfilesTable> & { email_sha256: string; avatar_digest: string | null },
): Profile {
  return {
    emailHash: row.email_sha256,
    slug: row.slug,
    displayName: row.display_name,
    avatarDigest: row.avatar_digest,
    avatarAltText: row.avatar_alt_text,
    location: row.location,
    description: row.description,
    jobTitle: row.job_title,
    company: row.company,
    pronunciation: row.pronunciation,
    pronouns: row.pronouns,
    firstName: row.first_name,
    lastName: row.last_name,
    timezone: row.timezone,
    languages: JSON.parse(row.languages),
    interests: JSON.parse(row.interests),
    inferredInterests: JSON.parse(row.inferred_interests),
    // PostgreSQL may hand an integer column back as a string.
    isOrganization: Number(row.is_organization) === 1,
    headerImage: row.header_image,
    backgroundColor: row.background_color,
    links: JSON.parse(row.links),
    contactInfo: JSON.parse(row.contact_info),
    payments: {
      // PostgreSQL may hand an integer column back as a string.
      public: Number(row.payments_public) === 1,
      links: JSON.parse(row.payment_links),
      cryptoWallets: JSON.parse(row.crypto_wallets),
    },
    gallery: JSON.parse(row.gallery),
    verifiedAccounts: sharingServiceText(JSON.parse(row.verified_accounts)),
    lastProfileEdit: row.last_profile_edit,
    registrationDate: row.registration_date,
  };
}
