import { absoluteUrl, int, rateLimitWindowSeconds, type PlatformConfig } from '../../platform/config.js';

/** The profiles service's settings: avatar links and caching, its caches, and its rate limits. */
export interface ProfilesSettings {
  /**
   * Base URL of the avatar images (`avatar_url` is `<avatarBaseUrl>/<hash>`):
   * this deployment's `/avatar` unless a CDN in front of it is named.
   */
  avatarBaseUrl: string;
  /** Seconds a cache may keep an uploaded avatar image (default images: 300). */
  avatarCacheSeconds: number;
  /** Seconds a shared cache may keep an anonymous profile answer. */
  profileCacheSeconds: number;
  /** Milliseconds each instance reuses a looked-up profile before asking the store again (0: never). */
  profileLookupCacheMs: number;
  /** Most looked-up profiles (or absences) each instance keeps at once, least recently used let go first (0: none). */
  profileLookupCacheEntries: number;
  /**
   * Milliseconds each instance trusts what it learned of an API key (valid,
   * revoked, unknown) before asking the store again (0: never): the longest
   * a key revoked elsewhere keeps working here.
   */
  apiKeyCacheMs: number;
  rateLimits: {
    anonymousPerHour: number;
    keyedPerHour: number;
    accountPerHour: number;
    /** Keyed lookups per window from one client address, across every key (`RATE_LIMIT_KEYED_PER_CLIENT`). */
    keyedPerClientPerHour: number;
    /** Avatar images per window per client address (`RATE_LIMIT_AVATARS`). */
    avatarsPerHour: number;
    /** Lists of verified-account services per window per client address (`RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES`). */
    verifiedAccountServicesPerHour: number;
    /** QR codes per window per client address (`RATE_LIMIT_QR_CODES`). */
    qrCodesPerHour: number;
    /** Verified-account services' icons per window per client address (`RATE_LIMIT_ICONS`). */
    iconsPerHour: number;
    windowSeconds: number;
  };
}

/** What the profiles module adds to the configuration (see docs/configuration.md). */
export interface ProfilesConfig {
  profiles: ProfilesSettings;
}

/** Reads the profiles service's variables; the avatar links default to the deployment's `PUBLIC_URL`. A ConfigError names a bad one. */
export function profilesSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  platform: Pick<PlatformConfig, 'publicUrl'>,
): ProfilesConfig {
  return {
    profiles: {
      avatarBaseUrl: absoluteUrl(env.AVATAR_BASE_URL || `${platform.publicUrl}/avatar`, 'AVATAR_BASE_URL').replace(
        /\/+$/,
        '',
      ),
      avatarCacheSeconds: int(env.AVATAR_CACHE_SECONDS, 86400, 'AVATAR_CACHE_SECONDS'),
      profileCacheSeconds: int(env.PROFILE_CACHE_SECONDS, 300, 'PROFILE_CACHE_SECONDS'),
      profileLookupCacheMs: int(env.PROFILE_LOOKUP_CACHE_MS, 1000, 'PROFILE_LOOKUP_CACHE_MS'),
      profileLookupCacheEntries: int(env.PROFILE_LOOKUP_CACHE_ENTRIES, 10_000, 'PROFILE_LOOKUP_CACHE_ENTRIES'),
      apiKeyCacheMs: int(env.API_KEY_CACHE_MS, 1000, 'API_KEY_CACHE_MS'),
      rateLimits: {
        anonymousPerHour: int(env.RATE_LIMIT_ANONYMOUS, 100, 'RATE_LIMIT_ANONYMOUS'),
        keyedPerHour: int(env.RATE_LIMIT_KEYED, 1000, 'RATE_LIMIT_KEYED'),
        // Every key of an account together: by default as much as one key, so a new key adds nothing.
        accountPerHour: int(
          env.RATE_LIMIT_ACCOUNT,
          int(env.RATE_LIMIT_KEYED, 1000, 'RATE_LIMIT_KEYED'),
          'RATE_LIMIT_ACCOUNT',
        ),
        // Keyed lookups from one client address, whatever keys it holds: two keys' worth at the default allowance.
        keyedPerClientPerHour: int(env.RATE_LIMIT_KEYED_PER_CLIENT, 2000, 'RATE_LIMIT_KEYED_PER_CLIENT'),
        avatarsPerHour: int(env.RATE_LIMIT_AVATARS, 2000, 'RATE_LIMIT_AVATARS'),
        verifiedAccountServicesPerHour: int(
          env.RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES,
          1000,
          'RATE_LIMIT_VERIFIED_ACCOUNT_SERVICES',
        ),
        qrCodesPerHour: int(env.RATE_LIMIT_QR_CODES, 1000, 'RATE_LIMIT_QR_CODES'),
        iconsPerHour: int(env.RATE_LIMIT_ICONS, 1000, 'RATE_LIMIT_ICONS'),
        windowSeconds: rateLimitWindowSeconds(env),
      },
    },
  };
}

/** Downloads of the contract document per client address per window. */
export const CONTRACT_DOWNLOADS_PER_HOUR = 100;
