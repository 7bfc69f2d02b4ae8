/**
 * The services a profile can verify an account on: the one list that
 * `GET /verified-accounts/services` answers and that every profile's
 * `verified_accounts` take their `service_label` and `service_icon` from (an
 * import names a service by its id, `service_type`, and nothing else can be
 * shown for it). Ids are the real service's (`github`, `twitter`, `tumblr`,
 * `mastodon`, …), since clients pick icons by them.
 */
export interface VerifiedAccountService {
  /** Machine name (`service_type` on a profile), and the name of its icon (`<id>.svg`). */
  id: string;
  /** The service's name, as people write it. */
  label: string;
  /** The colour of its icon, a square badge with the label's initial (`http/serviceIcons.ts` draws it). */
  colour: string;
}

const service = (id: string, label: string, colour: string): VerifiedAccountService => ({ id, label, colour });

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
 * Verified accounts read from the store, each holding its service's label as
 * the list's own string where the text is the list's (the same value, one
 * copy in memory), and no icon where the list has the service (its icon is
 * the list's, served at a URL; earlier releases stored a `data:` URL with
 * every account, which a profile kept by the lookup cache would otherwise
 * hold). Changes the accounts it is given (freshly parsed ones) and answers
 * them.
 */
export function sharingServiceText<
  Account extends { serviceType: string; serviceLabel: string; serviceIcon?: string | undefined },
>(accounts: Account[]): Account[] {
  for (const account of accounts) {
    const service = byId.get(account.serviceType);
    if (service === undefined) continue;
    if (account.serviceLabel === service.label) account.serviceLabel = service.label;
    // Set, not deleted: a deleted property would turn the object into a slower dictionary of properties.
    if (account.serviceIcon !== undefined) account.serviceIcon = undefined;
  }
  return accounts;
}
