import {
  bool,
  ConfigError,
  int,
  rateLimitWindowSeconds,
  redacted,
  type PlatformConfig,
} from '../../platform/config.js';
import { DEFAULT_PASSWORD_COST, MIN_PASSWORD_COST } from './domain/password.js';

/** The developer dashboard's settings: sessions, password hashing, log-in attempt and key limits. */
export interface DeveloperSettings {
  sessionTtlSeconds: number;
  /** A session not used for this long is refused (and pruned), whatever its lifetime left. */
  sessionIdleSeconds: number;
  /** scrypt cost as log2 N (`passwordCostFloor` to 20; checked when the service is built). */
  passwordCost: number;
  /**
   * The lowest cost a hash is made or checked at: `MIN_PASSWORD_COST`, which no variable lowers. Test servers,
   * which build their settings themselves, lower it to `TEST_PASSWORD_COST` (docs/decisions/test-password-cost.md).
   */
  passwordCostFloor: number;
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
  /** Where the dashboard's email goes: an `smtp://` or `smtps://` URL (`SMTP_URL`); unset, each message is written to the log instead (local demo). */
  smtpUrl: string | undefined;
  /**
   * `MAIL_TO_LOG`: messages (their links included) are meant to go to the log, not to a mail server. Required
   * to start in production without `SMTP_URL`, so a deployment never logs working links by omission.
   */
  mailToLog: boolean;
  /**
   * `COUNTER_KEY_SECRET`: the secret the dashboard's counter keys naming an address or an email are HMACed with
   * (shared by every instance, so they count alike); a fixed development value unless set, refused in production.
   */
  counterKeySecret: string;
}

/** The development value of `COUNTER_KEY_SECRET`: fine on a laptop, refused in production, where the store may be read by others. */
export const DEVELOPMENT_COUNTER_KEY_SECRET = 'development counter key secret, not for production';

/** `SMTP_URL`: an smtp(s) URL naming a host (its password is never echoed). */
function parseSmtpUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError(`SMTP_URL must be an smtp:// or smtps:// URL naming a host, got "${redacted(value)}"`);
  }
  return value;
}

/** The mail and counter-key settings that cannot be used together, or not in production. */
function checkMailAndCounters(
  env: NodeJS.ProcessEnv,
  settings: Pick<DeveloperSettings, 'smtpUrl' | 'mailToLog'>,
  production: boolean,
): void {
  if (settings.smtpUrl && settings.mailToLog) {
    throw new ConfigError(
      'SMTP_URL and MAIL_TO_LOG are both set: mail goes to the SMTP server or to the log, not both; unset one',
    );
  }
  if (production && !settings.smtpUrl && !settings.mailToLog) {
    throw new ConfigError(
      "SMTP_URL is not set and NODE_ENV is production: set SMTP_URL to send the dashboard's email, or MAIL_TO_LOG=true to write each message, working links included, to the log",
    );
  }
  if (env.COUNTER_KEY_SECRET !== undefined && env.COUNTER_KEY_SECRET !== '' && env.COUNTER_KEY_SECRET.length < 32) {
    throw new ConfigError('COUNTER_KEY_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  }
  if (production && !env.COUNTER_KEY_SECRET) {
    throw new ConfigError(
      'COUNTER_KEY_SECRET is not set and NODE_ENV is production: set it to a random secret of at least 32 characters, the same on every instance (e.g. openssl rand -base64 32)',
    );
  }
}

/** What the developer module adds to the configuration (see docs/configuration.md). */
export interface DeveloperConfig {
  developer: DeveloperSettings;
}

/**
 * Reads the dashboard's variables (`DEVELOPER_*`, its mail and counter key); a ConfigError names a bad one.
 * Without the platform's settings (the admin command and the mock read a setting or two), nothing is held to
 * what production needs.
 */
export function developerSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  platform?: Pick<PlatformConfig, 'production'>,
): DeveloperConfig {
  const mail = { smtpUrl: parseSmtpUrl(env.SMTP_URL), mailToLog: bool(env.MAIL_TO_LOG, false, 'MAIL_TO_LOG') };
  checkMailAndCounters(env, mail, platform?.production ?? false);
  return {
    developer: {
      ...mail,
      counterKeySecret: env.COUNTER_KEY_SECRET || DEVELOPMENT_COUNTER_KEY_SECRET,
      sessionTtlSeconds: int(env.DEVELOPER_SESSION_TTL_SECONDS, 43200, 'DEVELOPER_SESSION_TTL_SECONDS'),
      sessionIdleSeconds: int(env.DEVELOPER_SESSION_IDLE_SECONDS, 1800, 'DEVELOPER_SESSION_IDLE_SECONDS'),
      passwordCost: int(env.DEVELOPER_PASSWORD_COST, DEFAULT_PASSWORD_COST, 'DEVELOPER_PASSWORD_COST'),
      passwordCostFloor: MIN_PASSWORD_COST,
      passwordHashes: {
        running: int(env.DEVELOPER_PASSWORD_HASHES, 1, 'DEVELOPER_PASSWORD_HASHES'),
        maxWaitMs: int(env.DEVELOPER_PASSWORD_HASH_WAIT_MS, 2000, 'DEVELOPER_PASSWORD_HASH_WAIT_MS'),
      },
      loginAttempts: {
        perEmailAndClient: int(
          env.DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT,
          5,
          'DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT',
        ),
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
