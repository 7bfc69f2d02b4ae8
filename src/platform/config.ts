import type { TracingConfig } from './ops/tracing.js';
import {
  absoluteUrl,
  bool,
  ConfigError,
  int,
  LOG_LEVELS,
  parseClusterNodes,
  parseDatabaseUrl,
  parseRedisUrl,
  parseServices,
  parseTracing,
  port,
  rateLimitWindowSeconds,
  redacted,
} from './configValues.js';

export { absoluteUrl, bool, ConfigError, int, parseBaseUrl, rateLimitWindowSeconds, redacted } from './configValues.js';

/** How answers are checked against the contract: not at all, logged when wrong, or turned into a 500 (see `contractPipeline`). */
export type ResponseValidation = 'off' | 'log' | 'strict';

/**
 * The platform's settings, read from the environment (see
 * docs/configuration.md). Each service module declares its own (its
 * `settings`); `composeConfig` puts them beside these.
 */
export interface PlatformConfig {
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
  /** Load demo data into an empty store. */
  seedDemoData: boolean;
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
  /** The platform's own limit: requests per client address per window that no operation answers (docs, pages, unknown paths). */
  rateLimits: { otherPerHour: number; windowSeconds: number };
  /** Most connections open at once (`0`: no bound); the next ones are closed at once. */
  maxConnections: number;
  /** Most connections open at once from one client address (an IPv6 address by its /64; `0`: no bound). */
  maxConnectionsPerAddress: number;
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
  /** `NODE_ENV=production`. */
  production: boolean;
}

/** What a module adds to the configuration: its own settings under a key of its own (`{ developer: {…} }`). */
export type ModuleSettings = object;

/**
 * How a module reads its settings: from the environment, with the
 * platform's settings at hand for defaults that derive from them (a link
 * under `PUBLIC_URL`).
 */
export type ReadSettings<Settings extends ModuleSettings = ModuleSettings> = (
  env: NodeJS.ProcessEnv,
  platform: PlatformConfig,
) => Settings;

/** The configuration of an app with these modules: the platform's settings and each module's own. */
export type ConfigOf<Modules extends readonly { settings?: ReadSettings }[]> = PlatformConfig &
  UnionToIntersection<
    { [K in keyof Modules]: NonNullable<Modules[K]['settings']> extends ReadSettings<infer S> ? S : {} }[number]
  >;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/**
 * Reads the configuration: the platform's settings and those of every
 * module listed (each module's `settings` reads its own variables). Throws a
 * ConfigError naming the variable on a bad value or conflicting settings.
 */
export function composeConfig<const Modules extends readonly { name: string; settings?: ReadSettings }[]>(
  env: NodeJS.ProcessEnv,
  modules: Modules,
): ConfigOf<Modules> {
  const platform = readConfig(env);
  const own: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [key, settings] of Object.entries(module.settings?.(env, platform) ?? {})) {
      // A programming error, not a setting: two modules (or a module and the platform) claiming one key.
      if (key in platform || key in own) throw new Error(`${module.name}: its settings key ${key} is taken`);
      own[key] = settings;
    }
  }
  checkPlatformConfig(platform, env);
  // What each module's `settings` returned, under the keys its type names.
  return { ...platform, ...own } as ConfigOf<Modules>;
}

/** Settings that conflict with each other; a ConfigError names them. */
function checkPlatformConfig(config: PlatformConfig, env: NodeJS.ProcessEnv): void {
  if (config.databaseSchema && !config.databaseUrl.startsWith('postgres')) {
    throw new ConfigError(
      'DATABASE_SCHEMA applies to PostgreSQL only; unset it or set DATABASE_URL to a postgres:// URL',
    );
  }
  if (config.metrics.port !== undefined && config.metrics.port !== 0 && config.metrics.port === config.port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${config.port}): metrics are kept off the API port`);
  }
  if (env.TRUST_PROXY_HOPS && !config.trustProxy) {
    throw new ConfigError(
      'TRUST_PROXY_HOPS is set but TRUST_PROXY is not: set TRUST_PROXY=true behind a trusted proxy, or unset TRUST_PROXY_HOPS',
    );
  }
  if (config.databaseReadUrls.length && !config.databaseUrl.startsWith('postgres')) {
    throw new ConfigError(
      'DATABASE_READ_URL names PostgreSQL read replicas: set DATABASE_URL to their postgres:// primary, or unset DATABASE_READ_URL',
    );
  }
  if (config.replicaCheckMs < 10) throw new ConfigError('REPLICA_CHECK_MS must be at least 10');
  if (config.redisUrl && config.redisClusterNodes) {
    throw new ConfigError(
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: name one Redis server or the seeds of one Redis Cluster, not both',
    );
  }
  if (config.storeRetryAfterSeconds < 1) throw new ConfigError('STORE_RETRY_AFTER_SECONDS must be at least 1');
  if (config.trustProxyHops < 1) throw new ConfigError('TRUST_PROXY_HOPS must be at least 1');
}

/**
 * The address a client on this machine reaches the server at, from the address it listens on (`HOST`):
 * the loopback address for every interface (`0.0.0.0`, `::`), else that address itself. The default origin
 * of every URL the server builds (the OAuth issuer and endpoints, mail links) when `PUBLIC_URL` is unset.
 */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function readConfig(env: NodeJS.ProcessEnv): PlatformConfig {
  const apiPort = port(env.PORT, 8080, 'PORT');
  const production = env.NODE_ENV === 'production';
  const validation = (env.RESPONSE_VALIDATION ?? (production ? 'off' : 'strict')) as ResponseValidation;
  if (!['off', 'log', 'strict'].includes(validation))
    throw new ConfigError(`RESPONSE_VALIDATION must be off, log or strict, got "${validation}"`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = absoluteUrl(env.PUBLIC_URL || `http://${reachableHost(host)}:${apiPort}`, 'PUBLIC_URL').replace(
    /\/+$/,
    '',
  );
  return {
    port: apiPort,
    host,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:data/app.db'),
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databaseReadUrls: (env.DATABASE_READ_URL ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean)
      .map((url) => {
        if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url))
          throw new ConfigError(`DATABASE_READ_URL must be comma-separated postgres:// URLs, got "${redacted(url)}"`);
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
    seedDemoData: bool(env.SEED_DEMO_DATA, true, 'SEED_DEMO_DATA'),
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 10000, 'SHUTDOWN_GRACE_MS'),
    headersTimeoutMs: int(env.HEADERS_TIMEOUT_MS, 10000, 'HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: int(env.REQUEST_TIMEOUT_MS, 30000, 'REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: int(env.KEEP_ALIVE_TIMEOUT_MS, 65000, 'KEEP_ALIVE_TIMEOUT_MS'),
    rateLimits: {
      otherPerHour: int(env.RATE_LIMIT_OTHER, 1000, 'RATE_LIMIT_OTHER'),
      windowSeconds: rateLimitWindowSeconds(env),
    },
    maxConnections: int(env.MAX_CONNECTIONS, 10000, 'MAX_CONNECTIONS'),
    // Behind a proxy every connection comes from the proxy: no cap per address unless asked.
    maxConnectionsPerAddress: int(
      env.MAX_CONNECTIONS_PER_ADDRESS,
      bool(env.TRUST_PROXY, false, 'TRUST_PROXY') ? 0 : 256,
      'MAX_CONNECTIONS_PER_ADDRESS',
    ),
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
    production,
  };
}

/**
 * The services to serve of those an app has: every one unless `SERVICES`
 * names some; throws, naming the variable and the known names, for a name
 * that is none of them.
 */
export function selectServices<M extends { name: string }>(
  wanted: readonly string[] | undefined,
  modules: readonly M[],
): M[] {
  if (!wanted) return [...modules];
  const known = modules.map((module) => module.name);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length)
    throw new ConfigError(`SERVICES must list some of ${known.join(', ')}, got "${wanted.join(',')}"`);
  return modules.filter((module) => wanted.includes(module.name));
}
