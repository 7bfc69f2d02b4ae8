import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { S3Location } from '../../platform/files/s3FileStore.js';
import { ConfigError, int, parseBaseUrl, rateLimitWindowSeconds, type PlatformConfig } from '../../platform/config.js';

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
  media: MediaSettings;
  rateLimits: {
    /** Publishing reads (GET operations) per window per client address (`RATE_LIMIT_PUBLISHING_READS`). */
    readsPerHour: number;
    /** Publishing writes (trash, restore), refused tokens included, per window per client address (`RATE_LIMIT_PUBLISHING_WRITES`). */
    writesPerHour: number;
    windowSeconds: number;
  };
}

/** The media library's settings (docs/configuration.md, "Media"). */
export interface MediaSettings {
  /** Where files are kept (`MEDIA_STORAGE`): a folder of the local disk, or an S3-compatible bucket. */
  storage: { kind: 'file'; path: string } | ({ kind: 's3' } & S3Location);
  /** Base of the files' public URLs (`MEDIA_BASE_URL`; default this deployment's `/files`). */
  baseUrl: string;
  /** Largest file taken (`MEDIA_MAX_UPLOAD_BYTES`). */
  maxBytes: number;
  /** Most pixels of an image taken, every frame together (`MEDIA_MAX_PIXELS`). */
  maxPixels: number;
  /** Bytes of files one site may keep (`MEDIA_SITE_QUOTA_BYTES`). */
  siteQuotaBytes: number;
  /** Hosts `media_urls` may fetch from (`MEDIA_URL_HOSTS`; none by default). */
  urlHosts: readonly string[];
  /** Bytes of resized images an instance keeps in memory (`MEDIA_CACHE_BYTES`). */
  cacheBytes: number;
}

/** The largest file a multipart body carries (the platform's multipart limit). */
const MULTIPART_FILE_LIMIT = 32 * 1024 * 1024;

/** The media settings: files beside the SQLite file by default (a temporary folder for an in-memory store). */
function mediaSettings(env: NodeJS.ProcessEnv, platform: PlatformConfig | undefined): MediaSettings {
  const maxBytes = int(env.MEDIA_MAX_UPLOAD_BYTES, 10 * 1024 * 1024, 'MEDIA_MAX_UPLOAD_BYTES');
  if (maxBytes < 1 || maxBytes > MULTIPART_FILE_LIMIT) {
    throw new ConfigError(`MEDIA_MAX_UPLOAD_BYTES must be between 1 and ${MULTIPART_FILE_LIMIT}, got ${maxBytes}`);
  }
  const publicUrl = platform?.publicUrl ?? 'http://127.0.0.1:8080';
  return {
    storage: withCredentials(parseStorage(env.MEDIA_STORAGE, platform?.databaseUrl), env),
    baseUrl: parseBaseUrl(env.MEDIA_BASE_URL ?? `${publicUrl}/files`, 'MEDIA_BASE_URL'),
    maxBytes,
    maxPixels: int(env.MEDIA_MAX_PIXELS, 40_000_000, 'MEDIA_MAX_PIXELS'),
    siteQuotaBytes: int(env.MEDIA_SITE_QUOTA_BYTES, 1024 * 1024 * 1024, 'MEDIA_SITE_QUOTA_BYTES'),
    urlHosts: (env.MEDIA_URL_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    cacheBytes: int(env.MEDIA_CACHE_BYTES, 64 * 1024 * 1024, 'MEDIA_CACHE_BYTES'),
  };
}

/** The S3 keys of `MEDIA_S3_ACCESS_KEY_ID` and `MEDIA_S3_SECRET_ACCESS_KEY` (both or neither). */
function withCredentials(storage: MediaSettings['storage'], env: NodeJS.ProcessEnv): MediaSettings['storage'] {
  const accessKeyId = env.MEDIA_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.MEDIA_S3_SECRET_ACCESS_KEY;
  if (!accessKeyId && !secretAccessKey) return storage;
  if (!accessKeyId || !secretAccessKey)
    throw new ConfigError('MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY are set together, or neither');
  if (storage.kind !== 's3') throw new ConfigError('MEDIA_S3_ACCESS_KEY_ID applies to an s3:// MEDIA_STORAGE only');
  return { ...storage, credentials: { accessKeyId, secretAccessKey } };
}

/** A setting's value with any user and password taken out. */
const redactedUrl = (value: string) => value.replace(/\/\/[^/@]*@/, '//…@');

/** `MEDIA_STORAGE`: `file:PATH`, or `s3://BUCKET[/PREFIX]?endpoint=…&region=…&path_style=true`; by default the folder `media` beside the SQLite file (`data/media` otherwise). */
function parseStorage(value: string | undefined, databaseUrl: string | undefined): MediaSettings['storage'] {
  if (value === undefined || value === '') {
    const sqlite = databaseUrl?.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : undefined;
    if (sqlite === ':memory:') return { kind: 'file', path: join(tmpdir(), `media-${process.pid}-${Date.now()}`) };
    return { kind: 'file', path: join(sqlite ? dirname(sqlite) : 'data', 'media') };
  }
  if (value.startsWith('file:') && value.length > 'file:'.length) return { kind: 'file', path: value.slice(5) };
  if (value.startsWith('s3://') && URL.canParse(value)) {
    const url = new URL(value);
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    if (url.hostname && (endpoint === undefined || URL.canParse(endpoint))) {
      const prefix = url.pathname.replace(/^\/+/, '');
      return {
        kind: 's3',
        bucket: url.hostname,
        prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
        endpoint,
        region: url.searchParams.get('region') ?? 'us-east-1',
        pathStyle: url.searchParams.get('path_style') === 'true',
      };
    }
  }
  throw new ConfigError(
    `MEDIA_STORAGE must be file:PATH (e.g. file:data/media) or s3://BUCKET[/PREFIX][?endpoint=URL&region=R&path_style=true], got "${redactedUrl(value)}"`,
  );
}

/** What the publishing module adds to the configuration (see docs/configuration.md). */
export interface PublishingConfig {
  publishing: PublishingSettings;
}

/** Reads the publishing API's variables; a ConfigError names a bad one. */
export function publishingSettingsFromEnv(env: NodeJS.ProcessEnv, platform?: PlatformConfig): PublishingConfig {
  return {
    publishing: {
      corsOrigins: parseOrigins(env.PUBLISHING_CORS_ORIGINS),
      shortlinkBase: parseBaseUrl(env.PUBLISHING_SHORTLINK_BASE ?? 'https://wp.me', 'PUBLISHING_SHORTLINK_BASE'),
      accessTokenCacheMs: int(env.ACCESS_TOKEN_CACHE_MS, 1000, 'ACCESS_TOKEN_CACHE_MS'),
      siteCacheMs: int(env.SITE_CACHE_MS, 1000, 'SITE_CACHE_MS'),
      renderCacheEntries: int(env.POST_RENDER_CACHE_ENTRIES, 2000, 'POST_RENDER_CACHE_ENTRIES'),
      media: mediaSettings(env, platform),
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
