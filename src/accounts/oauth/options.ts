import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SiteDirectory } from '../../platform/module.js';
import type { RedisClient } from '../../platform/store/redis.js';
import type { AccountsTables } from '../tables.js';

/** Requests per window to those endpoints per client address and per application (`RATE_LIMIT_OAUTH`, `RATE_LIMIT_OAUTH_APPLICATION`, `RATE_LIMIT_WINDOW_SECONDS`). */
export interface OAuthLimits {
  perAddress: number;
  perApplication: number;
  windowSeconds: number;
}

export interface AuthorizationServerOptions {
  db: Kysely<AccountsTables>;
  /** The sites a grant may cover, from the module that keeps them: a token response names the first. */
  sites: SiteDirectory;
  /** The deployment's public origin (`PUBLIC_URL`): the issuer is `<origin>/oauth2`. */
  publicUrl: string;
  /** The dashboard page the person consents on; the interaction's id follows as `#consent=<uid>`. */
  consentPage: string;
  /**
   * The path of the dashboard API's consent requests (`…/oauth/consents`): the browser that starts an
   * authorization gets the interaction's cookie for `<consentApi>/<uid>` too, so only that browser can
   * read and answer it there (`boundInteraction`).
   */
  consentApi: string;
  logger: Logger;
  redis?: { client: RedisClient; keyPrefix: string };
  /** Default: `OAUTH_LIMITS`. */
  limits?: OAuthLimits;
  /** Told after a token or grant ends here (revocation, a replayed code or refresh token): the token caches forget it at once. */
  onRevoked?: () => void;
  /**
   * Fields added to every successful token response (authorization code and refresh), for the grant the
   * tokens were issued under; none by default. The contract's `TokenResponse` must describe them.
   */
  tokenResponse?: (grant: { accountId: string; clientId: string; grantId: string }) => Promise<Record<string, unknown>>;
  /** `Retry-After` (seconds) of a 503 when the store is unavailable; default 1, as the app's pipeline. */
  storeRetryAfterSeconds?: number;
  /**
   * The HTML page (and its Content-Security-Policy) of an authorization error that cannot go back to the app, for a
   * person's browser (a request that prefers `text/html`); others get the error as JSON. Without it, JSON to all.
   */
  errorPage?: { render(error: { error: string; error_description?: string }): string; policy: string };
}
