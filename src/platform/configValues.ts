import { type TracingConfig, tracingFromEnv } from './ops/tracing.js';

/*
 * How the configuration reads one variable (`config.ts` reads them all):
 * each parser names the variable in the ConfigError of a bad value, and
 * never echoes a password the value may hold.
 */

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

/** A non-negative integer setting; `fallback` when unset or empty. */
export const int = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,15}$/.test(value.trim())) throw new ConfigError(`${name} must be a non-negative integer, got "${value}"`);
  return Number(value.trim());
};

/**
 * `RATE_LIMIT_WINDOW_SECONDS`: the one window of every service's public
 * limits; each module that counts per window reads it with its own settings.
 */
export const rateLimitWindowSeconds = (env: NodeJS.ProcessEnv) =>
  int(env.RATE_LIMIT_WINDOW_SECONDS, 3600, 'RATE_LIMIT_WINDOW_SECONDS');

export const port = (value: string | undefined, fallback: number, name: string) => {
  const parsed = int(value, fallback, name);
  if (parsed > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${value}"`);
  return parsed;
};

export const bool = (value: string | undefined, fallback: boolean, name: string) => {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false (1/0, yes/no, on/off), got "${value}"`);
};

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A URL as it may appear in a message: without its password. */
export function redacted(value: string): string {
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
export function parseDatabaseUrl(value: string): string {
  const expected =
    'DATABASE_URL must be sqlite:PATH (e.g. sqlite:data/app.db), sqlite::memory: or postgres://USER@HOST:PORT/DATABASE';
  if (value.startsWith('sqlite:')) {
    if (!value.slice('sqlite:'.length).trim())
      throw new ConfigError(`${expected}; got "${value}", which names no file (SQLite would use a temporary database)`);
    return value;
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (!url.hostname && !url.searchParams.get('host')))
      throw new ConfigError(`${expected}; got "${redacted(value)}", which names no server`);
    return value;
  }
  throw new ConfigError(`${expected}; got "${redacted(value)}"`);
}

/** `REDIS_URL`: `redis://` or `rediss://` with a host. */
export function parseRedisUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!URL.canParse(value) || !/^rediss?:$/.test(new URL(value).protocol) || !new URL(value).hostname) {
    throw new ConfigError(`REDIS_URL must be redis://HOST:PORT (or rediss://), got "${redacted(value)}"`);
  }
  return value;
}

/** `REDIS_CLUSTER_NODES`: comma-separated `host:port` seeds of a Redis Cluster. */
export function parseClusterNodes(value: string | undefined): { host: string; port: number }[] | undefined {
  if (!value?.trim()) return undefined;
  return value.split(',').map((seed) => {
    const match = /^\s*(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})\s*$/.exec(seed);
    const portNumber = Number(match?.[2]);
    if (!match || portNumber < 1 || portNumber > 65535) {
      throw new ConfigError(
        `REDIS_CLUSTER_NODES must be comma-separated HOST:PORT seeds, got "${redacted(seed.trim())}"`,
      );
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port: portNumber };
  });
}

/** The standard OpenTelemetry variables; an endpoint must be an http(s) URL. */
export function parseTracing(env: NodeJS.ProcessEnv): TracingConfig {
  const tracing = tracingFromEnv(env);
  if (tracing.tracesUrl && !/^https?:\/\/[^/]/.test(tracing.tracesUrl)) {
    const name = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    throw new ConfigError(
      `${name} must be an http(s) URL of an OTLP/HTTP receiver, got "${redacted(tracing.tracesUrl)}"`,
    );
  }
  return tracing;
}

/** An absolute http(s) URL without query or fragment (links are built by appending to it). */
export function absoluteUrl(value: string, name: string): string {
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

/** An absolute http(s) URL without a trailing slash. */
export function parseBaseUrl(value: string, name: string): string {
  const base = value.replace(/\/+$/, '');
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
    throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  return base;
}

/** A comma-separated list of service names; unset or empty: every service. */
export function parseServices(value: string | undefined): readonly string[] | undefined {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length ? names : undefined;
}
