import { int, rateLimitWindowSeconds } from '../../platform/config.js';

/** The developer dashboard's settings: sessions, password hashing, log-in attempt and key limits. */
export interface DeveloperSettings {
  sessionTtlSeconds: number;
  /** A session not used for this long is refused (and pruned), whatever its lifetime left. */
  sessionIdleSeconds: number;
  /** scrypt cost as log2 N (14 to 20; checked when the service is built). */
  passwordCost: number;
  /**
   * Password hashes (and checks) run at once (each holds 128 * 2^cost * 8
   * bytes while it runs), and the expected wait at which one more is answered
   * 503 instead of queued.
   */
  passwordHashes: { running: number; maxWaitMs: number };
  /** Failed log-ins per email address from one client address, and failed log-ins and sign-ups per client address, per window. */
  loginAttempts: { perEmailAndClient: number; perClient: number; windowSeconds: number };
  /** Most applications one account may have at a time. */
  maxApplications: number;
  /** Most key rotations one account may make in 24 hours. */
  keyRotationsPerDay: number;
  /** Requests per client address per window to every operation that is not a log-in or sign-up attempt. */
  requestsPerHour: number;
  requestsWindowSeconds: number;
  /** Requests per window to the OAuth authorization, token and revocation endpoints, per client address and per application. */
  oauthLimits: { perAddress: number; perApplication: number; windowSeconds: number };
}

/** What the developer module adds to the configuration (see docs/configuration.md). */
export interface DeveloperConfig {
  developer: DeveloperSettings;
}

/** Reads the dashboard's `DEVELOPER_*` variables; a ConfigError names a bad one. */
export function developerSettingsFromEnv(env: NodeJS.ProcessEnv): DeveloperConfig {
  return {
    developer: {
      sessionTtlSeconds: int(env.DEVELOPER_SESSION_TTL_SECONDS, 43200, 'DEVELOPER_SESSION_TTL_SECONDS'),
      sessionIdleSeconds: int(env.DEVELOPER_SESSION_IDLE_SECONDS, 1800, 'DEVELOPER_SESSION_IDLE_SECONDS'),
      passwordCost: int(env.DEVELOPER_PASSWORD_COST, 17, 'DEVELOPER_PASSWORD_COST'),
      passwordHashes: {
        running: int(env.DEVELOPER_PASSWORD_HASHES, 1, 'DEVELOPER_PASSWORD_HASHES'),
        maxWaitMs: int(env.DEVELOPER_PASSWORD_HASH_WAIT_MS, 2000, 'DEVELOPER_PASSWORD_HASH_WAIT_MS'),
      },
      loginAttempts: {
        perEmailAndClient: int(env.DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT, 5, 'DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT'),
        perClient: int(env.DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT, 50, 'DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT'),
        windowSeconds: int(env.DEVELOPER_LOGIN_WINDOW_SECONDS, 900, 'DEVELOPER_LOGIN_WINDOW_SECONDS'),
      },
      maxApplications: int(env.DEVELOPER_MAX_APPLICATIONS, 10, 'DEVELOPER_MAX_APPLICATIONS'),
      keyRotationsPerDay: int(env.DEVELOPER_KEY_ROTATIONS_PER_DAY, 10, 'DEVELOPER_KEY_ROTATIONS_PER_DAY'),
      requestsPerHour: int(env.RATE_LIMIT_DEVELOPER, 1000, 'RATE_LIMIT_DEVELOPER'),
      requestsWindowSeconds: rateLimitWindowSeconds(env),
      oauthLimits: {
        perAddress: int(env.RATE_LIMIT_OAUTH, 300, 'RATE_LIMIT_OAUTH'),
        perApplication: int(env.RATE_LIMIT_OAUTH_APPLICATION, 100, 'RATE_LIMIT_OAUTH_APPLICATION'),
        windowSeconds: rateLimitWindowSeconds(env),
      },
    },
  };
}
