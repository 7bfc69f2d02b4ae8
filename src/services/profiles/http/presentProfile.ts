import type { ProfilesPrincipal } from '../operations.js';
import type {
  AnonymousProfile,
  AuthenticatedProfile,
  ContactInfo as PublicContactInfo,
  Interest as PublicInterest,
  VerifiedAccount as PublicVerifiedAccount,
} from '../../../../generated/profiles/types.gen.js';
import { verifiedAccountService } from '../domain/verifiedAccountServices.js';
import { serviceIconUrl } from './serviceIcons.js';
import {
  CONTACT_FIELDS,
  type ContactInfo,
  type Interest,
  type Profile,
  type VerifiedAccount,
} from '../domain/profile.js';

/** Who is asking: a caller without a valid API key, or one with. */
export type Audience = 'anonymous' | 'keyed';

/** The audience of a lookup's caller: a key holder is answered the keyed profile, anyone else the anonymous one. */
export const audienceOf = (caller: ProfilesPrincipal): Audience => (caller.kind === 'key' ? 'keyed' : 'anonymous');

/**
 * Where the links in an answer point: profile pages at `<profiles>/<slug>`,
 * avatar images at `<avatars>/<hash>`, verified-account services' icons at
 * `<icons>/<id>.svg`.
 */
export interface ProfileLinkBases {
  /** `PUBLIC_URL`. */
  profiles: string;
  /** `AVATAR_BASE_URL` (by default `PUBLIC_URL/avatar`). */
  avatars: string;
  /** `PUBLIC_URL/icons`. */
  icons: string;
}

/** "Unauthenticated responses list at most 4 verified accounts." */
export const ANONYMOUS_VERIFIED_ACCOUNTS = 4;

/**
 * What a profile shows to whom, in one place.
 *
 * - Anonymous: "the response omits the authenticated-only fields and lists
 *   at most 4 verified accounts": the seed's public fields, and the profile
 *   card's look (header image, background colour), which the seed does not
 *   mark authenticated-only and the real service sends to embedded cards.
 * - Keyed: "the full profile is returned, including links, registration and
 *   last-edit timestamps, contact info, payments and wallets, gallery
 *   images, and number_verified_accounts", and the real service's optional
 *   personal details (names, time zone, languages, interests, organization
 *   flag), always present.
 *
 * For both, hidden verified accounts are never listed (but are counted in
 * `number_verified_accounts`), and only the contact details and payments
 * the owner made public are shown. `profile_url` is `<profiles>/<slug>`;
 * `avatar_url` is always `<avatars>/<hash>`, which serves the uploaded image
 * or a default one.
 */
export function presentProfile(profile: Profile, audience: 'anonymous', links: ProfileLinkBases): AnonymousProfile;
export function presentProfile(profile: Profile, audience: 'keyed', links: ProfileLinkBases): AuthenticatedProfile;
export function presentProfile(
  profile: Profile,
  audience: Audience,
  links: ProfileLinkBases,
): AnonymousProfile | AuthenticatedProfile;
export function presentProfile(
  profile: Profile,
  audience: Audience,
  links: ProfileLinkBases,
): AnonymousProfile | AuthenticatedProfile {
  const listed = profile.verifiedAccounts
    .filter((account) => !account.hidden)
    .map((account) => presentVerifiedAccount(account, links.icons));
  const common: AnonymousProfile = {
    hash: profile.emailHash,
    display_name: profile.displayName,
    profile_url: `${links.profiles}/${profile.slug}`,
    avatar_url: `${links.avatars}/${profile.emailHash}`,
    avatar_alt_text: profile.avatarAltText,
    location: profile.location,
    description: profile.description,
    job_title: profile.jobTitle,
    company: profile.company,
    verified_accounts: audience === 'anonymous' ? listed.slice(0, ANONYMOUS_VERIFIED_ACCOUNTS) : listed,
    pronunciation: profile.pronunciation,
    pronouns: profile.pronouns,
    header_image: profile.headerImage,
    background_color: profile.backgroundColor,
  };
  if (audience === 'anonymous') return common;

  const { payments } = profile;
  const contactInfo = publicContactInfo(profile.contactInfo);
  // In the order of the real service's published Profile schema.
  return {
    ...common,
    timezone: profile.timezone,
    languages: profile.languages.map(({ code, name, isPrimary }, index) => ({
      code,
      name,
      is_primary: isPrimary,
      order: index + 1,
    })),
    first_name: profile.firstName,
    last_name: profile.lastName,
    is_organization: profile.isOrganization,
    links: profile.links.map(({ label, url }) => ({ label, url })),
    interests: profile.interests.map(presentInterest),
    payments: {
      links: payments.public ? payments.links.map(({ label, url }) => ({ label, url })) : [],
      crypto_wallets: payments.public ? payments.cryptoWallets.map(({ label, address }) => ({ label, address })) : [],
    },
    ...(contactInfo ? { contact_info: contactInfo } : {}),
    gallery: profile.gallery.map(({ url, altText }) => (altText === undefined ? { url } : { url, alt_text: altText })),
    number_verified_accounts: profile.verifiedAccounts.length,
    last_profile_edit: profile.lastProfileEdit,
    registration_date: profile.registrationDate,
  };
}

/**
 * The interests inferred for a profile, as the real service answers them:
 * `[{id, name, slug}]`, for keyed callers only (the operation requires a key).
 */
export const presentInferredInterests = (profile: Profile): PublicInterest[] =>
  profile.inferredInterests.map(presentInterest);

/**
 * An interest as the real service shows it: its slug "combines id and its
 * normalized name" (`1-photography`): the name's letters and digits in
 * lower case, runs of anything else as one `-`.
 */
export const presentInterest = ({ id, name }: Interest): PublicInterest => {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return { id, name, slug: words ? `${id}-${words}` : String(id) };
};

/**
 * A verified account with its service's label and icon from the list of
 * services (`GET /verified-accounts/services`), the one source of both (the
 * icon's URL at `<icons>/<id>.svg`); an account stored by an earlier release
 * on a service the list lacks keeps what was stored with it.
 */
const presentVerifiedAccount = (account: VerifiedAccount, icons: string): PublicVerifiedAccount => {
  const service = verifiedAccountService(account.serviceType);
  return {
    service_type: account.serviceType,
    service_label: service?.label ?? account.serviceLabel,
    service_icon: service ? serviceIconUrl(icons, service.id) : (account.serviceIcon ?? ''),
    url: account.url,
    is_hidden: false,
  };
};

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
