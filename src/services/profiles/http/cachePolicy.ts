import type { Audience } from './presentProfile.js';

/**
 * `Cache-Control` of a profile answer. Anonymous answers may sit in shared
 * caches for `PROFILE_CACHE_SECONDS`; "a keyed answer must never be stored
 * by a shared cache", so it is `private, no-store`.
 */
export const profileCacheControl = (audience: Audience, maxAgeSeconds: number): string =>
  audience === 'anonymous' ? `public, max-age=${maxAgeSeconds}` : KEYED_CACHE_CONTROL;

/** `Cache-Control` of every answer to a keyed caller: never kept by a shared cache. */
export const KEYED_CACHE_CONTROL = 'private, no-store';

/**
 * How long a default avatar image, a redirect to the caller's own default or
 * a `d=404` answer may be cached: 300 seconds, as the real image service
 * does, so an image uploaded meanwhile shows soon.
 */
export const DEFAULT_AVATAR_CACHE_SECONDS = 300;

/** `Cache-Control` of an avatar answer: public (it never depends on the caller). */
export const avatarCacheControl = (maxAgeSeconds: number): string => `public, max-age=${maxAgeSeconds}`;
