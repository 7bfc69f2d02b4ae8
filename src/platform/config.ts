import type { ResponseValidation } from './http/pipeline.js';

/** Every setting of the server, read from the environment (see the README's table). */
export interface Config {
  port: number;
  host: string;
  /** `sqlite:PATH`, `sqlite::memory:` or `postgres://…`. */
  databaseUrl: string;
  /** PostgreSQL schema for the tables (created at start-up); unset uses the server's default. */
  databaseSchema: string | undefined;
  /** `redis://…` to share rate-limit counters between instances; unset keeps them in memory. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this deployment writes (several deployments may share one Redis). */
  redisKeyPrefix: string;
  logLevel: string;
  responseValidation: ResponseValidation;
  /** Take the client IP from `X-Forwarded-For` (only behind a trusted proxy). */
  trustProxy: boolean;
  /**
   * How many trusted proxies append to `X-Forwarded-For` (with `trustProxy`):
   * the client IP is the entry that many places from the right, so a value
   * the client itself sent is never believed.
   */
  trustProxyHops: number;
  /** Public base URL of the deployment, used in links the APIs return. */
  publicUrl: string;
  /**
   * Base URL of the avatar images (`avatar_url` is `<avatarBaseUrl>/<hash>`):
   * this deployment's `/avatar` unless a CDN in front of it is named.
   */
  avatarBaseUrl: string;
  /** Seconds a cache may keep an uploaded avatar image (default images: 300). */
  avatarCacheSeconds: number;
  /** Load demo data into an empty store. */
  seedDemoData: boolean;
  rateLimits: { anonymousPerHour: number; keyedPerHour: number; windowSeconds: number };
  /** Seconds a shared cache may keep an anonymous profile answer. */
  profileCacheSeconds: number;
  /** Milliseconds each instance reuses a looked-up profile before asking the store again (0: never). */
  profileLookupCacheMs: number;
  /**
   * Milliseconds each instance trusts what it learned of an API key (valid,
   * revoked, unknown) before asking the store again (0: never): the longest
   * a key revoked elsewhere keeps working here.
   */
  apiKeyCacheMs: number;
  shutdownGraceMs: number;
  /** Longest wait for a request's headers (slow clients). */
  headersTimeoutMs: number;
  /** Longest wait for a whole request. */
  requestTimeoutMs: number;
  /**
   * How long an idle keep-alive connection stays open. Longer than the idle
   * timeout of the load balancers and clients in front (60 s is common), so
   * the server never closes a connection a client is about to reuse.
   */
  keepAliveTimeoutMs: number;
  /** Milliseconds a store query may take before it fails. */
  storeTimeoutMs: number;
  /**
   * Which services this process serves, by module name (`SERVICES`); undefined
   * serves every module the app lists. The app checks the names against its
   * modules (the configuration knows none).
   */
  services: readonly string[] | undefined;
  /** The developer dashboard: sessions, password hashing, log-in attempt limits. */
  developer: {
    sessionTtlSeconds: number;
    /** scrypt cost as log2 N (14 to 20). */
    passwordCost: number;
    loginAttempts: { perEmail: number; perClient: number; windowSeconds: number };
  };
  /** The publishing API: browser origins allowed by CORS, and the base of its wp.me-style short links. */
  publishing: {
    /** Origins (`https://app.example.com`) whose scripts may call the API; `'*'` for any. */
    corsOrigins: readonly string[] | '*';
    shortlinkBase: string;
  };
}

const int = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
};

const bool = (value: string | undefined, fallback: boolean) =>
  value === undefined || value === '' ? fallback : /^(1|true|yes|on)$/i.test(value);

/** Reads the configuration; throws with the variable's name on a bad value. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080, 'PORT');
  const production = env.NODE_ENV === 'production';
  const validation = (env.RESPONSE_VALIDATION ?? (production ? 'off' : 'strict')) as ResponseValidation;
  if (!['off', 'log', 'strict'].includes(validation)) throw new Error('RESPONSE_VALIDATION must be off, log or strict');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:data/app.db',
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'rl',
    logLevel: env.LOG_LEVEL ?? 'info',
    responseValidation: validation,
    trustProxy: bool(env.TRUST_PROXY, false),
    trustProxyHops: int(env.TRUST_PROXY_HOPS, 1, 'TRUST_PROXY_HOPS'),
    publicUrl,
    avatarBaseUrl: absoluteUrl(env.AVATAR_BASE_URL || `${publicUrl}/avatar`, 'AVATAR_BASE_URL').replace(/\/+$/, ''),
    avatarCacheSeconds: int(env.AVATAR_CACHE_SECONDS, 86400, 'AVATAR_CACHE_SECONDS'),
    seedDemoData: bool(env.SEED_DEMO_DATA, true),
    rateLimits: {
      anonymousPerHour: int(env.RATE_LIMIT_ANONYMOUS, 100, 'RATE_LIMIT_ANONYMOUS'),
      keyedPerHour: int(env.RATE_LIMIT_KEYED, 1000, 'RATE_LIMIT_KEYED'),
      windowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 3600, 'RATE_LIMIT_WINDOW_SECONDS'),
    },
    profileCacheSeconds: int(env.PROFILE_CACHE_SECONDS, 300, 'PROFILE_CACHE_SECONDS'),
    profileLookupCacheMs: int(env.PROFILE_LOOKUP_CACHE_MS, 1000, 'PROFILE_LOOKUP_CACHE_MS'),
    apiKeyCacheMs: int(env.API_KEY_CACHE_MS, 1000, 'API_KEY_CACHE_MS'),
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 10000, 'SHUTDOWN_GRACE_MS'),
    headersTimeoutMs: int(env.HEADERS_TIMEOUT_MS, 10000, 'HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: int(env.REQUEST_TIMEOUT_MS, 30000, 'REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: int(env.KEEP_ALIVE_TIMEOUT_MS, 65000, 'KEEP_ALIVE_TIMEOUT_MS'),
    storeTimeoutMs: int(env.STORE_TIMEOUT_MS, 5000, 'STORE_TIMEOUT_MS'),
    services: parseServices(env.SERVICES),
    developer: {
      sessionTtlSeconds: int(env.DEVELOPER_SESSION_TTL_SECONDS, 43200, 'DEVELOPER_SESSION_TTL_SECONDS'),
      passwordCost: int(env.DEVELOPER_PASSWORD_COST, 17, 'DEVELOPER_PASSWORD_COST'),
      loginAttempts: {
        perEmail: int(env.DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL, 5, 'DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL'),
        perClient: int(env.DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT, 50, 'DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT'),
        windowSeconds: int(env.DEVELOPER_LOGIN_WINDOW_SECONDS, 900, 'DEVELOPER_LOGIN_WINDOW_SECONDS'),
      },
    },
    publishing: {
      corsOrigins: parseOrigins(env.PUBLISHING_CORS_ORIGINS),
      shortlinkBase: parseBaseUrl(env.PUBLISHING_SHORTLINK_BASE ?? 'https://wp.me', 'PUBLISHING_SHORTLINK_BASE'),
    },
  };
}

/** An absolute http(s) URL without query or fragment (links are built by appending to it). */
function absoluteUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http or https URL, got "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new Error(`${name} must be an absolute http or https URL without query or fragment, got "${value}"`);
  }
  return value;
}

/** A comma-separated list of origins (`scheme://host[:port]`), or `*` for any; empty allows none. */
function parseOrigins(value: string | undefined): readonly string[] | '*' {
  if (value?.trim() === '*') return '*';
  const origins = (value ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new Error(`PUBLISHING_CORS_ORIGINS must list origins such as https://app.example.com, or be *, got "${origin}"`);
    }
  }
  return origins;
}

/** An absolute http(s) URL without a trailing slash. */
function parseBaseUrl(value: string, name: string): string {
  const base = value.replace(/\/+$/, '');
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return base;
}

/** A comma-separated list of service names; unset or empty: every service. */
function parseServices(value: string | undefined): readonly string[] | undefined {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  return names.length ? names : undefined;
}

/**
 * The services to serve of those an app has: every one unless `SERVICES`
 * names some; throws, naming the variable and the known names, for a name
 * that is none of them.
 */
export function selectServices<M extends { name: string }>(wanted: readonly string[] | undefined, modules: readonly M[]): M[] {
  if (!wanted) return [...modules];
  const known = modules.map((module) => module.name);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length) throw new Error(`SERVICES must list some of ${known.join(', ')}, got "${wanted.join(',')}"`);
  return modules.filter((module) => wanted.includes(module.name));
}
