import type { ResponseValidation } from './http/pipeline.js';
import { type TracingConfig, tracingFromEnv } from './ops/tracing.js';

/** Every setting of the server, read from the environment (see docs/configuration.md). */
export interface Config {
  port: number;
  host: string;
  /** `sqlite:PATH`, `sqlite::memory:` or `postgres://…`. */
  databaseUrl: string;
  /** PostgreSQL schema for the tables (created at start-up); unset uses the server's default. */
  databaseSchema: string | undefined;
  /** `DATABASE_READ_URL`: PostgreSQL read replicas (comma-separated) for the hot reads; none: every read goes to the primary. */
  databaseReadUrls: string[];
  /** `REPLICA_MAX_LAG_MS`: a replica further behind the primary than this is left out until it catches up. */
  replicaMaxLagMs: number;
  /** `REPLICA_CHECK_MS`: how often each replica's health and lag are checked. */
  replicaCheckMs: number;
  /** `redis://…` to share rate-limit counters between instances; unset keeps them in memory. */
  redisUrl: string | undefined;
  /** `REDIS_CLUSTER_NODES`: seed nodes of a Redis Cluster, instead of `REDIS_URL`, for the same shared counters and change bus. */
  redisClusterNodes: { host: string; port: number }[] | undefined;
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
  /** Whether `PUBLIC_URL` was set (else `publicUrl` is this host's default, and answers name the origin a request reached). */
  publicUrlFromEnv: boolean;
  /**
   * Base URL of the avatar images (`avatar_url` is `<avatarBaseUrl>/<hash>`):
   * this deployment's `/avatar` unless a CDN in front of it is named.
   */
  avatarBaseUrl: string;
  /** Seconds a cache may keep an uploaded avatar image (default images: 300). */
  avatarCacheSeconds: number;
  /** Load demo data into an empty store. */
  seedDemoData: boolean;
  rateLimits: {
    anonymousPerHour: number;
    keyedPerHour: number;
    accountPerHour: number;
    /** Avatar images per window per client address (`RATE_LIMIT_AVATARS`). */
    avatarsPerHour: number;
    /** Publishing reads (GET operations) per window per client address (`RATE_LIMIT_PUBLISHING_READS`). */
    publishingReadsPerHour: number;
    windowSeconds: number;
  };
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
   * SQLite: the longest wait, in asynchronous pauses, for a write lock that
   * another connection holds; after it the request is answered 503.
   */
  storeBusyWaitMs: number;
  /** SQLite's own synchronous busy wait per attempt (it blocks the process, so a few milliseconds). */
  sqliteBusyTimeoutMs: number;
  /** `Retry-After` (seconds) of a 503 answered while the store is down or busy. */
  storeRetryAfterSeconds: number;
  /** Largest JSON or text answer (bytes); a larger one is refused with a 400 in the service's format (0: no cap). */
  maxAnswerBytes: number;
  /**
   * Where Prometheus reads `/metrics`: never on the public API port unless a
   * token is set. `port`: a listener of its own (`METRICS_PORT`, on
   * `METRICS_HOST`); `token`: a bearer token the scraper must send
   * (`METRICS_TOKEN`), on the metrics port if any, else on the API port.
   * Neither: no metrics are served.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** OpenTelemetry traces over OTLP/HTTP: off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set. */
  tracing: TracingConfig;
  /**
   * Which services this process serves, by module name (`SERVICES`); undefined
   * serves every module the app lists. The app checks the names against its
   * modules (the configuration knows none).
   */
  services: readonly string[] | undefined;
  /** Where email goes: an `smtp://` or `smtps://` URL (`SMTP_URL`); unset, each message is written to the log instead (local demo). */
  smtpUrl: string | undefined;
  /** The developer dashboard: sessions, password hashing, log-in attempt limits. */
  developer: {
    sessionTtlSeconds: number;
    /** scrypt cost as log2 N (14 to 20). */
    passwordCost: number;
    /** Failed log-ins per email address from one client address, and failed log-ins and sign-ups per client address, per window. */
    loginAttempts: { perEmailAndClient: number; perClient: number; windowSeconds: number };
    /** Most applications one account may have at a time. */
    maxApplications: number;
    /** Most key rotations one account may make in 24 hours. */
    keyRotationsPerDay: number;
  };
  /** The publishing API: browser origins allowed by CORS, and the base of its wp.me-style short links. */
  publishing: {
    /** Origins (`https://app.example.com`) whose scripts may call the API; `'*'` for any. */
    corsOrigins: readonly string[] | '*';
    shortlinkBase: string;
    /** How long an instance trusts what it learned of a bearer token (`ACCESS_TOKEN_CACHE_MS`; 0: never): the longest a revoked token keeps working there. */
    accessTokenCacheMs: number;
    /** How long an instance trusts a site it read and a user's role capabilities on it (`SITE_CACHE_MS`; 0: never): the longest a change to either made in the store takes to apply there. */
    siteCacheMs: number;
  };
}

/**
 * A setting that cannot be used: start-up stops with this one line, which
 * names the variable (and never echoes a password the value may hold).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const int = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,15}$/.test(value.trim())) throw new ConfigError(`${name} must be a non-negative integer, got "${value}"`);
  return Number(value.trim());
};

const port = (value: string | undefined, fallback: number, name: string) => {
  const parsed = int(value, fallback, name);
  if (parsed > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${value}"`);
  return parsed;
};

const bool = (value: string | undefined, fallback: boolean, name: string) => {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false (1/0, yes/no, on/off), got "${value}"`);
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A URL as it may appear in a message: without its password. */
function redacted(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
}

/**
 * `DATABASE_URL`: `sqlite:PATH` (a non-empty path), `sqlite::memory:`, or
 * `postgres://` / `postgresql://` with a host or a socket. An empty SQLite
 * path is refused: SQLite would open a temporary database, gone at restart.
 */
function parseDatabaseUrl(value: string): string {
  const expected = 'DATABASE_URL must be sqlite:PATH (e.g. sqlite:data/app.db), sqlite::memory: or postgres://USER@HOST:PORT/DATABASE';
  if (value.startsWith('sqlite:')) {
    if (!value.slice('sqlite:'.length).trim()) throw new ConfigError(`${expected}; got "${value}", which names no file (SQLite would use a temporary database)`);
    return value;
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (!url.hostname && !url.searchParams.get('host'))) throw new ConfigError(`${expected}; got "${redacted(value)}", which names no server`);
    return value;
  }
  throw new ConfigError(`${expected}; got "${redacted(value)}"`);
}

/** `REDIS_URL`: `redis://` or `rediss://` with a host. */
function parseRedisUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!URL.canParse(value) || !/^rediss?:$/.test(new URL(value).protocol) || !new URL(value).hostname) {
    throw new ConfigError(`REDIS_URL must be redis://HOST:PORT (or rediss://), got "${redacted(value)}"`);
  }
  return value;
}

/** `REDIS_CLUSTER_NODES`: comma-separated `host:port` seeds of a Redis Cluster. */
function parseClusterNodes(value: string | undefined): { host: string; port: number }[] | undefined {
  if (!value?.trim()) return undefined;
  return value.split(',').map((seed) => {
    const match = /^\s*(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})\s*$/.exec(seed);
    const portNumber = Number(match?.[2]);
    if (!match || portNumber < 1 || portNumber > 65535) {
      throw new ConfigError(`REDIS_CLUSTER_NODES must be comma-separated HOST:PORT seeds, got "${redacted(seed.trim())}"`);
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port: portNumber };
  });
}

/** `SMTP_URL`: an smtp(s) URL naming a host (its password is never echoed). */
function parseSmtpUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError(`SMTP_URL must be an smtp:// or smtps:// URL naming a host, got "${redacted(value)}"`);
  }
  return value;
}

/** The standard OpenTelemetry variables; an endpoint must be an http(s) URL. */
function parseTracing(env: NodeJS.ProcessEnv): TracingConfig {
  const tracing = tracingFromEnv(env);
  if (tracing.tracesUrl && !/^https?:\/\/[^/]/.test(tracing.tracesUrl)) {
    const name = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    throw new ConfigError(`${name} must be an http(s) URL of an OTLP/HTTP receiver, got "${redacted(tracing.tracesUrl)}"`);
  }
  return tracing;
}

/** Reads the configuration; throws a ConfigError naming the variable on a bad value or conflicting settings. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const config = readConfig(env);
  if (config.databaseSchema && !config.databaseUrl.startsWith('postgres')) {
    throw new ConfigError('DATABASE_SCHEMA applies to PostgreSQL only; unset it or set DATABASE_URL to a postgres:// URL');
  }
  if (config.metrics.port !== undefined && config.metrics.port !== 0 && config.metrics.port === config.port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${config.port}): metrics are kept off the API port`);
  }
  if (env.TRUST_PROXY_HOPS && !config.trustProxy) {
    throw new ConfigError('TRUST_PROXY_HOPS is set but TRUST_PROXY is not: set TRUST_PROXY=true behind a trusted proxy, or unset TRUST_PROXY_HOPS');
  }
  if (config.databaseReadUrls.length && !config.databaseUrl.startsWith('postgres')) {
    throw new ConfigError('DATABASE_READ_URL names PostgreSQL read replicas: set DATABASE_URL to their postgres:// primary, or unset DATABASE_READ_URL');
  }
  if (config.replicaCheckMs < 10) throw new ConfigError('REPLICA_CHECK_MS must be at least 10');
  if (config.redisUrl && config.redisClusterNodes) {
    throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES are both set: name one Redis server or the seeds of one Redis Cluster, not both');
  }
  if (config.storeRetryAfterSeconds < 1) throw new ConfigError('STORE_RETRY_AFTER_SECONDS must be at least 1');
  if (config.trustProxyHops < 1) throw new ConfigError('TRUST_PROXY_HOPS must be at least 1');
  return config;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const apiPort = port(env.PORT, 8080, 'PORT');
  const production = env.NODE_ENV === 'production';
  const validation = (env.RESPONSE_VALIDATION ?? (production ? 'off' : 'strict')) as ResponseValidation;
  if (!['off', 'log', 'strict'].includes(validation)) throw new ConfigError(`RESPONSE_VALIDATION must be off, log or strict, got "${validation}"`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const publicUrl = absoluteUrl(env.PUBLIC_URL || `http://localhost:${apiPort}`, 'PUBLIC_URL').replace(/\/+$/, '');
  return {
    port: apiPort,
    host: env.HOST || '0.0.0.0',
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:data/app.db'),
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databaseReadUrls: (env.DATABASE_READ_URL ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean)
      .map((url) => {
        if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url)) throw new ConfigError(`DATABASE_READ_URL must be comma-separated postgres:// URLs, got "${redacted(url)}"`);
        return url;
      }),
    replicaMaxLagMs: int(env.REPLICA_MAX_LAG_MS, 1000, 'REPLICA_MAX_LAG_MS'),
    replicaCheckMs: int(env.REPLICA_CHECK_MS, 250, 'REPLICA_CHECK_MS'),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisClusterNodes: parseClusterNodes(env.REDIS_CLUSTER_NODES),
    tracing: parseTracing(env),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'rl',
    logLevel,
    responseValidation: validation,
    trustProxy: bool(env.TRUST_PROXY, false, 'TRUST_PROXY'),
    trustProxyHops: int(env.TRUST_PROXY_HOPS, 1, 'TRUST_PROXY_HOPS'),
    publicUrl,
    publicUrlFromEnv: Boolean(env.PUBLIC_URL),
    avatarBaseUrl: absoluteUrl(env.AVATAR_BASE_URL || `${publicUrl}/avatar`, 'AVATAR_BASE_URL').replace(/\/+$/, ''),
    avatarCacheSeconds: int(env.AVATAR_CACHE_SECONDS, 86400, 'AVATAR_CACHE_SECONDS'),
    seedDemoData: bool(env.SEED_DEMO_DATA, true, 'SEED_DEMO_DATA'),
    rateLimits: {
      anonymousPerHour: int(env.RATE_LIMIT_ANONYMOUS, 100, 'RATE_LIMIT_ANONYMOUS'),
      keyedPerHour: int(env.RATE_LIMIT_KEYED, 1000, 'RATE_LIMIT_KEYED'),
      // Every key of an account together: by default as much as one key, so a new key adds nothing.
      accountPerHour: int(env.RATE_LIMIT_ACCOUNT, int(env.RATE_LIMIT_KEYED, 1000, 'RATE_LIMIT_KEYED'), 'RATE_LIMIT_ACCOUNT'),
      avatarsPerHour: int(env.RATE_LIMIT_AVATARS, 2000, 'RATE_LIMIT_AVATARS'),
      publishingReadsPerHour: int(env.RATE_LIMIT_PUBLISHING_READS, 1000, 'RATE_LIMIT_PUBLISHING_READS'),
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
    storeBusyWaitMs: int(env.STORE_BUSY_WAIT_MS, 1000, 'STORE_BUSY_WAIT_MS'),
    sqliteBusyTimeoutMs: int(env.SQLITE_BUSY_TIMEOUT_MS, 5, 'SQLITE_BUSY_TIMEOUT_MS'),
    storeRetryAfterSeconds: int(env.STORE_RETRY_AFTER_SECONDS, 2, 'STORE_RETRY_AFTER_SECONDS'),
    maxAnswerBytes: int(env.MAX_ANSWER_BYTES, 4 * 1024 * 1024, 'MAX_ANSWER_BYTES'),
    metrics: {
      port: env.METRICS_PORT ? port(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined,
      // Loopback unless named: an unauthenticated metrics port must not face the network by default.
      host: env.METRICS_HOST || '127.0.0.1',
      token: env.METRICS_TOKEN || undefined,
    },
    services: parseServices(env.SERVICES),
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    developer: {
      sessionTtlSeconds: int(env.DEVELOPER_SESSION_TTL_SECONDS, 43200, 'DEVELOPER_SESSION_TTL_SECONDS'),
      passwordCost: int(env.DEVELOPER_PASSWORD_COST, 17, 'DEVELOPER_PASSWORD_COST'),
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
    },
    publishing: {
      corsOrigins: parseOrigins(env.PUBLISHING_CORS_ORIGINS),
      shortlinkBase: parseBaseUrl(env.PUBLISHING_SHORTLINK_BASE ?? 'https://wp.me', 'PUBLISHING_SHORTLINK_BASE'),
      accessTokenCacheMs: int(env.ACCESS_TOKEN_CACHE_MS, 1000, 'ACCESS_TOKEN_CACHE_MS'),
      siteCacheMs: int(env.SITE_CACHE_MS, 1000, 'SITE_CACHE_MS'),
    },
  };
}

/** An absolute http(s) URL without query or fragment (links are built by appending to it). */
function absoluteUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http or https URL, got "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http or https URL without query or fragment, got "${value}"`);
  }
  return value;
}

/** A comma-separated list of origins (`scheme://host[:port]`), or `*` for any; empty allows none. */
function parseOrigins(value: string | undefined): readonly string[] | '*' {
  if (value?.trim() === '*') return '*';
  const origins = (value ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError(`PUBLISHING_CORS_ORIGINS must list origins such as https://app.example.com, or be *, got "${origin}"`);
    }
  }
  return origins;
}

/** An absolute http(s) URL without a trailing slash. */
function parseBaseUrl(value: string, name: string): string {
  const base = value.replace(/\/+$/, '');
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
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
  if (unknown.length) throw new ConfigError(`SERVICES must list some of ${known.join(', ')}, got "${wanted.join(',')}"`);
  return modules.filter((module) => wanted.includes(module.name));
}
