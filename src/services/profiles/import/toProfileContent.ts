import { utcSeconds } from '../domain/time.js';
import { verifiedAccountService } from '../domain/verifiedAccountServices.js';
import { accountUsername } from '../domain/accountUsername.js';
import type { ProfileContent } from '../domain/profilesStore.js';
import type { ProfileRecord } from './profileRecord.js';

/** The profile content a valid import record describes; `importedAt` stands in for an absent `last_profile_edit`. */
export function toProfileContent(record: ProfileRecord, importedAt: Date): ProfileContent {
  const lastEdit = record.last_profile_edit === undefined ? importedAt.toISOString() : record.last_profile_edit;
  return {
    slug: record.slug,
    displayName: record.display_name,
    avatarAltText: record.avatar_alt_text ?? '',
    location: record.location ?? '',
    description: record.description ?? '',
    jobTitle: record.job_title ?? '',
    company: record.company ?? '',
    pronunciation: record.pronunciation ?? '',
    pronouns: record.pronouns ?? '',
    firstName: record.first_name ?? '',
    lastName: record.last_name ?? '',
    timezone: record.timezone ?? '',
    languages: (record.languages ?? []).map(({ code, name, is_primary }) => ({
      code,
      name,
      isPrimary: is_primary ?? false,
    })),
    interests: (record.interests ?? []).map(({ id, name }) => ({ id, name })),
    inferredInterests: (record.inferred_interests ?? []).map(({ id, name }) => ({ id, name })),
    isOrganization: record.is_organization ?? false,
    headerImage: record.header_image ?? '',
    backgroundColor: record.background_color ?? '',
    links: record.links ?? [],
    contactInfo: record.contact_info ?? {},
    payments: {
      public: record.payments?.public ?? false,
      links: record.payments?.links ?? [],
      cryptoWallets: record.payments?.crypto_wallets ?? [],
    },
    gallery: (record.gallery ?? []).map(({ url, alt_text }) =>
      alt_text === undefined ? { url } : { url, altText: alt_text },
    ),
    // The label and icon are the service list's (the record's own, from files of earlier releases, are not kept; the icon is not stored).
    verifiedAccounts: (record.verified_accounts ?? []).map((account) => {
      const service = verifiedAccountService(account.service_type);
      return {
        serviceType: account.service_type,
        serviceLabel: service?.label ?? account.service_type,
        url: account.url,
        username: accountUsername(account),
        hidden: account.is_hidden ?? false,
      };
    }),
    registrationDate: record.registration_date ?? null,
    lastProfileEdit: lastEdit === null ? null : utcSeconds(new Date(lastEdit)),
  };
}
