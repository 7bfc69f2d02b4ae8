import type { Kysely } from 'kysely';
import type { ActiveKeyCache } from '../../accounts/apiKeyCache.js';
import type { AccountsTables } from '../../accounts/tables.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { Contract } from '../../platform/contract/types.js';
import type { rateLimits } from '../../platform/security/limits.js';
import type { LookupCache } from '../../platform/store/lookupCache.js';
import type { AvatarImages } from './avatars/avatarImages.js';
import type { ProfileLinkBases } from './domain/presentProfile.js';
import type { ProfileDirectory } from './domain/profilesStore.js';
import type { ProfilesPrincipal } from './operations.js';
import type { ProfilesConfig } from './settings.js';

/**
 * Everything the profiles service is made of, built once by its module
 * (`profilesDeps` in module.ts) and handed as it is to the handlers, the
 * policies and the security resolvers.
 */
export interface ProfilesDeps {
  contract: Contract;
  /** The platform's settings and the service's (`config.profiles`: caches, limits, the avatar base URL). */
  config: PlatformConfig & ProfilesConfig;
  /** The profiles, each lookup remembered by this instance for `PROFILE_LOOKUP_CACHE_MS`. */
  profiles: ProfileDirectory;
  /** Where the links of a presented profile point (`PUBLIC_URL`, `AVATAR_BASE_URL`). */
  links: ProfileLinkBases;
  /** The API keys the `apiKey` scheme resolves, remembered for `API_KEY_CACHE_MS` and forgotten when a key ends (`API_KEYS_CHANGED`). */
  keys: ActiveKeyCache;
  /** The person an OAuth access token (by its hash) acts for, remembered like keys and forgotten when a grant ends (`OAUTH_GRANTS_CHANGED`). */
  people: LookupCache<string, ProfilesPrincipal | null>;
  /** The accounts' tables, where `/me` reads the signed-in person's email hashes; without them no person is known. */
  accounts?: Kysely<AccountsTables>;
  /** Uploaded avatar images drawn to size, default avatars and QR codes: kept, and drawn through one gate. */
  avatars: AvatarImages;
  /** The service's limits (counted in this process, or shared through Redis). */
  limits: ReturnType<typeof rateLimits>;
}
