/**
 * The services a profile can verify an account on: the one list that
 * `GET /verified-accounts/services` answers and that every profile's
 * `verified_accounts` take their `service_label` and `service_icon` from (an
 * import names a service by its id, `service_type`, and nothing else can be
 * shown for it). Ids are the real service's (`github`, `twitter`, `tumblr`,
 * `mastodon`, …), since clients pick icons by them.
 */
export interface VerifiedAccountService {
  /** Machine name (`service_type` on a profile). */
  id: string;
  /** The service's name, as people write it. */
  label: string;
  /** The service's icon: a small SVG, as a `data:` URL, so it shows wherever the answer goes with nothing more to serve. */
  icon: string;
}

/** A square badge in the service's colour with its initial: an icon that needs no file or host. */
const badge = (initial: string, colour: string): string =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${colour}"/>` +
      `<text x="16" y="22" font-family="Arial,sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">${initial}</text></svg>`,
  ).toString('base64')}`;

const service = (id: string, label: string, colour: string): VerifiedAccountService => ({
  id,
  label,
  icon: badge(label[0]!, colour),
});

/** Every service, in the order the list is answered (alphabetical by label). */
export const VERIFIED_ACCOUNT_SERVICES: readonly VerifiedAccountService[] = Object.freeze(
  [
    service('bluesky', 'Bluesky', '#0085ff'),
    service('calendly', 'Calendly', '#006bff'),
    service('facebook', 'Facebook', '#1877f2'),
    service('flickr', 'Flickr', '#ff0084'),
    service('foursquare', 'Foursquare', '#f94877'),
    service('github', 'GitHub', '#24292f'),
    service('goodreads', 'Goodreads', '#553b08'),
    service('instagram', 'Instagram', '#e4405f'),
    service('linkedin', 'LinkedIn', '#0a66c2'),
    service('mastodon', 'Mastodon', '#6364ff'),
    service('stackoverflow', 'Stack Overflow', '#f48024'),
    service('tiktok', 'TikTok', '#000000'),
    service('tumblr', 'Tumblr', '#36465d'),
    service('twitch', 'Twitch', '#9146ff'),
    service('twitter', 'Twitter', '#1da1f2'),
    service('wordpress', 'WordPress', '#21759b'),
    service('youtube', 'YouTube', '#ff0000'),
  ].map((entry) => Object.freeze(entry)),
);

const byId = new Map(VERIFIED_ACCOUNT_SERVICES.map((entry) => [entry.id, entry]));

/** The service with this id, or undefined when no profile can verify an account there. */
export const verifiedAccountService = (id: string): VerifiedAccountService | undefined => byId.get(id);

/**
 * Verified accounts read from the store, each holding its service's label
 * and icon as the list's own strings where the text is the list's (the same
 * values, one copy in memory): a profile kept by the lookup cache then holds
 * no copy of the icons (a few hundred bytes each), which its row repeats.
 * Changes the accounts it is given (freshly parsed ones) and answers them.
 */
export function sharingServiceText<Account extends { serviceType: string; serviceLabel: string; serviceIcon: string }>(
  accounts: Account[],
): Account[] {
  for (const account of accounts) {
    const service = byId.get(account.serviceType);
    if (service === undefined) continue;
    if (account.serviceLabel === service.label) account.serviceLabel = service.label;
    if (account.serviceIcon === service.icon) account.serviceIcon = service.icon;
  }
  return accounts;
}
