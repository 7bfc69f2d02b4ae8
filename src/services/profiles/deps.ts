import type { ActiveKeyCache } from '../../accounts/apiKeyCache.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { Contract } from '../../platform/contract/types.js';
import type { rateLimits } from '../../platform/security/limits.js';
import type { LookupCache } from '../../platform/store/lookupCache.js';
import type { ProfileLinkBases } from './http/presentProfile.js';
import type { FlowDeps } from './flows/deps.js';
import type { ProfilesPrincipal } from './operations.js';
import type { ProfilesConfig } from './settings.js';

/**
 * Everything the profiles service is made of, built once by its module
 * (`profilesDeps` in module.ts) and handed as it is to the handlers, the
 * policies and the security resolvers: what the flows work with, and what
 * the handlers, policies and security resolvers add to it.
 */
export interface ProfilesDeps extends FlowDeps {
  contract: Contract;
  /** The platform's settings and the service's (`config.profiles`: caches, limits, the avatar base URL). */
  config: PlatformConfig & ProfilesConfig;
  /** Where the links of a presented profile point (`PUBLIC_URL`, `AVATAR_BASE_URL`). */
  links: ProfileLinkBases;
  /** The API keys the `apiKey` scheme resolves, remembered for `API_KEY_CACHE_MS` and forgotten when a key ends (`API_KEYS_CHANGED`). */
  keys: ActiveKeyCache;
  /** The person an OAuth access token (by its hash) acts for, remembered like keys and forgotten when a grant ends (`OAUTH_GRANTS_CHANGED`). */
  tokenOwners: LookupCache<string, ProfilesPrincipal | null>;
  /** The service's limits (counted in this process, or shared through Redis). */
  limits: ReturnType<typeof rateLimits>;
}
