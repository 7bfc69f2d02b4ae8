import type { ProfileLookup } from '../domain/identifier.js';
import { invalidRequest } from '../../../platform/answers/errors.js';

/** What to draw when there is no avatar image: a generated image, the caller's own image URL, or nothing. */
export type AvatarFallback =
  | { kind: 'generated'; style: DefaultAvatarStyle }
  | { kind: 'redirect'; url: string }
  | { kind: 'not-found' };

/** The default images this service draws. */
export type DefaultAvatarStyle = 'mp' | 'identicon' | 'blank';

/** An avatar image request, read from its path and query (see `readAvatarRequest`). */
export interface AvatarRequest {
  /** The profile whose image is asked for: by SHA-256 or MD5 hash, or none for anything else. */
  lookup: ProfileLookup;
  /** The hash as asked for (lower case, no extension): what an identicon is drawn from when no profile has it. */
  seed: string;
  /** Width and height in pixels. */
  size: number;
  fallback: AvatarFallback;
  /** `f=y`: the fallback even when there is an image. */
  forceDefault: boolean;
}

/** "images are presented at 80px by 80px if no size parameter is supplied". */
export const DEFAULT_AVATAR_SIZE = 80;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MD5_HEX = /^[0-9a-f]{32}$/;
/** "you may also add an (optional) .jpg extension to that URL" (and the other image extensions). */
const EXTENSION = /\.(png|jpe?g|gif)$/;
/** The real service's generated styles this service does not draw: they get an identicon. */
const OTHER_GENERATED = new Set(['identicon', 'monsterid', 'wavatar', 'retro', 'robohash', 'initials', 'color']);

/** The query of `GET /avatar/{hash}` after validation; each parameter has a short and a long name. */
export interface AvatarQuery {
  s?: number;
  size?: number;
  d?: string;
  default?: string;
  f?: string;
  forcedefault?: string;
  r?: string;
  rating?: string;
}

/**
 * Reads an avatar request as the real image service does: `s`/`size`
 * (default 80), `d`/`default` (`mp` or `mm`, `identicon` and the other
 * generated styles, `blank`, `404`, or an `http`/`https` image URL; absent or
 * anything else: `mp`), `f`/`forcedefault` (`y`), `r`/`rating` (every image
 * here is rated `g`, so it changes nothing). The short name wins over the
 * long one. A hash is SHA-256 or MD5 hex in any case, with or without an
 * image extension; anything else names no profile.
 */
export function readAvatarRequest(hash: string, query: AvatarQuery): AvatarRequest {
  const seed = hash.toLowerCase().replace(EXTENSION, '');
  const lookup: ProfileLookup = SHA256_HEX.test(seed)
    ? { by: 'sha256', value: seed }
    : MD5_HEX.test(seed)
      ? { by: 'md5', value: seed }
      : { by: 'nothing' };
  return {
    lookup,
    seed,
    size: query.s ?? query.size ?? DEFAULT_AVATAR_SIZE,
    fallback: readFallback(query.d ?? query.default),
    forceDefault: (query.f ?? query.forcedefault ?? '').toLowerCase() === 'y',
  };
}

function readFallback(value: string | undefined): AvatarFallback {
  const name = (value ?? '').trim().toLowerCase();
  if (name === '404') return { kind: 'not-found' };
  if (name === 'blank') return { kind: 'generated', style: 'blank' };
  if (OTHER_GENERATED.has(name)) return { kind: 'generated', style: 'identicon' };
  const url = value ? imageUrl(value.trim()) : undefined;
  if (url) return { kind: 'redirect', url };
  return { kind: 'generated', style: 'mp' };
}

/** An absolute `http`/`https` URL with a host, normalized (so no control character reaches a header), or undefined. */
function imageUrl(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.hostname ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a size not written as plain decimal digits, as the real service
 * does: the validator reads `1e3`, `0x10`, `+5` or ` 5` as numbers, so the
 * text as sent (`raw`, the request's query; the last of repeated values) is
 * checked too.
 */
export function checkSizeDigits(raw: Record<string, string | string[] | undefined>): void {
  for (const name of ['s', 'size']) {
    const value = raw[name];
    const text = Array.isArray(value) ? value[value.length - 1] : value;
    if (text !== undefined && !/^[0-9]+$/.test(text))
      throw invalidRequest(`Invalid parameter ${name}: must be plain decimal digits`);
  }
}
