import type {
  AnonymousProfile,
  AuthenticatedProfile,
  ContactInfo as PublicContactInfo,
  VerifiedAccount as PublicVerifiedAccount,
} from '../../../generated/profiles/types.gen.js';
import { CONTACT_FIELDS, type ContactInfo, type Profile, type VerifiedAccount } from './profile.js';

/** Who is asking: a caller without a valid API key, or one with. */
export type Audience = 'anonymous' | 'keyed';

/** "Unauthenticated responses list at most 4 verified accounts." */
export const ANONYMOUS_VERIFIED_ACCOUNTS = 4;

/**
 * What a profile shows to whom, in one place.
 *
 * - Anonymous: "the response omits the authenticated-only fields and lists
 *   at most 4 verified accounts".
 * - Keyed: "the full profile is returned, including links, registration and
 *   last-edit timestamps, contact info, payments and wallets, gallery
 *   images, and number_verified_accounts".
 *
 * For both, hidden verified accounts are never listed (but are counted in
 * `number_verified_accounts`), and only the contact details and payments
 * the owner made public are shown. `profile_url` is `<publicUrl>/<slug>`.
 */
export function presentProfile(profile: Profile, audience: 'anonymous', publicUrl: string): AnonymousProfile;
export function presentProfile(profile: Profile, audience: 'keyed', publicUrl: string): AuthenticatedProfile;
export function presentProfile(
  profile: Profile,
  audience: Audience,
  publicUrl: string,
): AnonymousProfile | AuthenticatedProfile;
export function presentProfile(
  profile: Profile,
  audience: Audience,
  publicUrl: string,
): AnonymousProfile | AuthenticatedProfile {
  const listed = profile.verifiedAccounts.filter((account) => !account.hidden).map(presentVerifiedAccount);
  const common: AnonymousProfile = {
    hash: profile.emailHash,
    display_name: profile.displayName,
    profile_url: `${publicUrl}/${profile.slug}`,
    avatar_url: profile.avatarUrl,
    avatar_alt_text: profile.avatarAltText,
    location: profile.location,
    description: profile.description,
    job_title: profile.jobTitle,
    company: profile.company,
    verified_accounts: audience === 'anonymous' ? listed.slice(0, ANONYMOUS_VERIFIED_ACCOUNTS) : listed,
    pronunciation: profile.pronunciation,
    pronouns: profile.pronouns,
  };
  if (audience === 'anonymous') return common;

  const { payments } = profile;
  const full: AuthenticatedProfile = {
    ...common,
    links: profile.links.map(({ label, url }) => ({ label, url })),
    payments: {
      links: payments.public ? payments.links.map(({ label, url }) => ({ label, url })) : [],
      crypto_wallets: payments.public ? payments.cryptoWallets.map(({ label, address }) => ({ label, address })) : [],
    },
    gallery: profile.gallery.map(({ url, altText }) => (altText === undefined ? { url } : { url, alt_text: altText })),
    number_verified_accounts: profile.verifiedAccounts.length,
    last_profile_edit: profile.lastProfileEdit,
    registration_date: profile.registrationDate,
  };
  const contactInfo = publicContactInfo(profile.contactInfo);
  if (contactInfo) full.contact_info = contactInfo;
  return full;
}

const presentVerifiedAccount = (account: VerifiedAccount): PublicVerifiedAccount => ({
  service_type: account.serviceType,
  service_label: account.serviceLabel,
  service_icon: account.serviceIcon,
  url: account.url,
  is_hidden: false,
});

/** The public contact details; undefined when the owner made none public (the member is then omitted). */
function publicContactInfo(contactInfo: ContactInfo): PublicContactInfo | undefined {
  const shown: PublicContactInfo = {};
  let any = false;
  for (const field of CONTACT_FIELDS) {
    const detail = contactInfo[field];
    if (detail?.public) {
      shown[field] = detail.value;
      any = true;
    }
  }
  return any ? shown : undefined;
}
