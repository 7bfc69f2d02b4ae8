import { utcSeconds } from '../domain/time.js';
import type { OwnedProfile } from '../store/profilesStore.js';
import type { ProfileRecord } from './profileRecord.js';

/** The profile a valid import record describes; `importedAt` stands in for an absent `last_profile_edit`. */
export function toOwnedProfile(record: ProfileRecord, importedAt: Date): OwnedProfile {
  const lastEdit = record.last_profile_edit === undefined ? importedAt.toISOString() : record.last_profile_edit;
  return {
    email: record.email,
    profile: {
      slug: record.slug,
      displayName: record.display_name,
      avatarUrl: record.avatar_url ?? '',
      avatarAltText: record.avatar_alt_text ?? '',
      location: record.location ?? '',
      description: record.description ?? '',
      jobTitle: record.job_title ?? '',
      company: record.company ?? '',
      pronunciation: record.pronunciation ?? '',
      pronouns: record.pronouns ?? '',
      links: record.links ?? [],
      contactInfo: record.contact_info ?? {},
      payments: {
        public: record.payments?.public ?? false,
        links: record.payments?.links ?? [],
        cryptoWallets: record.payments?.crypto_wallets ?? [],
      },
      gallery: (record.gallery ?? []).map(({ url, alt_text }) => (alt_text === undefined ? { url } : { url, altText: alt_text })),
      verifiedAccounts: (record.verified_accounts ?? []).map((account) => ({
        serviceType: account.service_type,
        serviceLabel: account.service_label,
        serviceIcon: account.service_icon,
        url: account.url,
        hidden: account.is_hidden ?? false,
      })),
      registrationDate: record.registration_date ?? null,
      lastProfileEdit: lastEdit === null ? null : utcSeconds(new Date(lastEdit)),
    },
  };
}
