import type { Contract } from '../../platform/contract/types.js';
import type { rateLimits } from '../../platform/security/limits.js';
import type { FlowDeps } from './flows/deps.js';
import type { SessionCookiePolicy } from './http/sessionCookie.js';
import type { DeveloperSettings } from './settings.js';

/**
 * Everything the developer service is made of, built once by its module
 * (`developerDeps` in module.ts): what the flows work with, and what the
 * handlers, policies and security resolver add to it.
 */
export interface DeveloperDeps extends FlowDeps {
  contract: Contract;
  /** The service's limits (in this process, or shared through Redis); the throttle, rotations and mails count with them too. */
  limits: ReturnType<typeof rateLimits>;
  /** Other requests per client address (`RATE_LIMIT_DEVELOPER`, in its window). */
  requests: Pick<DeveloperSettings, 'requestsPerHour' | 'requestsWindowSeconds'>;
  /** The deployment's public origin (`PUBLIC_URL`'s), which a call that changes something must come from. */
  publicOrigin: string;
  /** How the session cookie is written (`Secure` when `PUBLIC_URL` is HTTPS). */
  cookie: SessionCookiePolicy;
  /** `NODE_ENV=production`: no answer then says that a message is in the log. */
  production: boolean;
}
