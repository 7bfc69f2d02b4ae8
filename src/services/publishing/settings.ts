import { ConfigError, int, parseBaseUrl, rateLimitWindowSeconds } from '../../platform/config.js';

/** The publishing API's settings: browser origins allowed by CORS, its short links, how long an instance trusts what it read, and its read limit. */
export interface PublishingSettings {
  /** Origins (`https://app.example.com`) whose scripts may call the API; `'*'` for any. */
  corsOrigins: readonly string[] | '*';
  shortlinkBase: string;
  /** How long an instance trusts what it learned of a bearer token (`ACCESS_TOKEN_CACHE_MS`; 0: never): the longest a revoked token keeps working there. */
  accessTokenCacheMs: number;
  /** How long an instance trusts a site it read and a user's role capabilities on it (`SITE_CACHE_MS`; 0: never): the longest a change to either made in the store takes to apply there. */
  siteCacheMs: number;
  /** How many post objects presented to callers without a token an instance keeps (`POST_RENDER_CACHE_ENTRIES`; 0: none), each good while the store is unchanged (SQLite only). */
  renderCacheEntries: number;
  rateLimits: {
    /** Publishing reads (GET operations) per window per client address (`RATE_LIMIT_PUBLISHING_READS`). */
    readsPerHour: number;
    /** Publishing writes (trash, restore), refused tokens included, per window per client address (`RATE_LIMIT_PUBLISHING_WRITES`). */
    writesPerHour: number;
    windowSeconds: number;
  };
}

/** What the publishing module adds to the configuration (see docs/configuration.md). */
export interface PublishingConfig {
  publishing: PublishingSettings;
}

/** Reads the publishing API's variables; a ConfigError names a bad one. */
export function publishingSettingsFromEnv(env: NodeJS.ProcessEnv): PublishingConfig {
  return {
    publishing: {
      corsOrigins: parseOrigins(env.PUBLISHING_CORS_ORIGINS),
      shortlinkBase: parseBaseUrl(env.PUBLISHING_SHORTLINK_BASE ?? 'https://wp.me', 'PUBLISHING_SHORTLINK_BASE'),
      accessTokenCacheMs: int(env.ACCESS_TOKEN_CACHE_MS, 1000, 'ACCESS_TOKEN_CACHE_MS'),
      siteCacheMs: int(env.SITE_CACHE_MS, 1000, 'SITE_CACHE_MS'),
      renderCacheEntries: int(env.POST_RENDER_CACHE_ENTRIES, 2000, 'POST_RENDER_CACHE_ENTRIES'),
      rateLimits: {
        readsPerHour: int(env.RATE_LIMIT_PUBLISHING_READS, 1000, 'RATE_LIMIT_PUBLISHING_READS'),
        writesPerHour: int(env.RATE_LIMIT_PUBLISHING_WRITES, 1000, 'RATE_LIMIT_PUBLISHING_WRITES'),
        windowSeconds: rateLimitWindowSeconds(env),
      },
    },
  };
}

/** A comma-separated list of origins (`scheme://host[:port]`), or `*` for any; empty allows none. */
function parseOrigins(value: string | undefined): readonly string[] | '*' {
  if (value?.trim() === '*') return '*';
  const origins = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError(
        `PUBLISHING_CORS_ORIGINS must list origins such as https://app.example.com, or be *, got "${origin}"`,
      );
    }
  }
  return origins;
}
