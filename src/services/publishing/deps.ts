import type { Contract } from '../../platform/contract/types.js';
import type { rateLimits } from '../../platform/security/limits.js';
import type { LookupCache } from '../../platform/store/lookupCache.js';
import type { FlowDeps } from './flows/deps.js';
import type { PublishingStore } from './domain/publishingStore.js';
import type { PublishingPrincipal } from './operations.js';
import type { PublishingSettings } from './settings.js';

/**
 * Everything the publishing service is made of, built once by its module
 * (`publishingDeps` in module.ts): what the flows work with (`store` is the
 * primary), and what the handlers, policies and security resolver add to it.
 */
export interface PublishingDeps extends FlowDeps {
  contract: Contract;
  /** Where the read operations read: a read replica when configured (at most its lag behind), else `store`. */
  readStore: PublishingStore;
  /**
   * The caller a bearer token's hash names (a command-line token's user, or
   * an OAuth access token's with what its grant covers), remembered for
   * `ACCESS_TOKEN_CACHE_MS` and forgotten when a grant ends.
   */
  tokenOwners: LookupCache<string, PublishingPrincipal | null>;
  /** Browser origins whose scripts may call the API (`PUBLISHING_CORS_ORIGINS`). */
  corsOrigins: PublishingSettings['corsOrigins'];
  /** The service's limits (counted in this process, or shared through Redis). */
  limits: ReturnType<typeof rateLimits>;
  /** Reads and writes per client address (`RATE_LIMIT_PUBLISHING_*`), in their window. */
  rateLimits: PublishingSettings['rateLimits'];
}
