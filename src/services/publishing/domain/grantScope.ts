import type { SiteAccess } from '../../../accounts/oauth/scopes.js';
import type { PublishingStore } from './publishingStore.js';

/** What an OAuth token's grant lets it do: the sites the person picked, each read-only or read and write. */
export interface GrantScope {
  sites: ReadonlyMap<number, SiteAccess>;
}

/** The capabilities a read-only grant keeps of the person's role: reading, private posts included where the role may. */
const READ_CAPABILITIES = new Set(['read', 'read_private_posts']);

/**
 * The store as a token of this grant sees it: on a site the grant does not
 * cover the person has no capability (as if they had no role there); on a
 * read-only site only their role's reading capabilities; on a site granted
 * for writing their role's. A token never gets more than the role allows.
 */
export function withinGrant(store: PublishingStore, grant: GrantScope): PublishingStore {
  const scoped = Object.create(store) as PublishingStore;
  scoped.capabilitiesOf = async (siteId, userId) => {
    const access = grant.sites.get(siteId);
    if (!access) return new Set<string>();
    const capabilities = await store.capabilitiesOf(siteId, userId);
    return access === 'write'
      ? capabilities
      : new Set([...capabilities].filter((capability) => READ_CAPABILITIES.has(capability)));
  };
  return scoped;
}
