import type { Audience } from '../domain/presentProfile.js';

/**
 * `Cache-Control` of a profile answer. Anonymous answers may sit in shared
 * caches for `PROFILE_CACHE_SECONDS`; "a keyed answer must never be stored
 * by a shared cache", so it is `private, no-store`.
 */
export const profileCacheControl = (audience: Audience, maxAgeSeconds: number): string =>
  audience === 'anonymous' ? `public, max-age=${maxAgeSeconds}` : 'private, no-store';
