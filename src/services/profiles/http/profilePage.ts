import type { Middleware } from 'koa';
import { ApiError } from '../../../platform/answers/errors.js';
import { setHeaders } from '../../../platform/answers/headers.js';
import type { LimitStep } from '../../../platform/security/limits.js';
import { isStoreUnavailable } from '../../../platform/store/unavailable.js';
import type { ProfilesDeps } from '../deps.js';
import { parseIdentifier } from '../domain/identifier.js';
import type { ProfilesPrincipal } from '../operations.js';
import { profileCacheControl } from './cachePolicy.js';
import { entityTag } from '../domain/entityTag.js';
import { ifNoneMatchMatches } from './ifNoneMatch.js';
import type { PresentedLookups } from './presentedLookups.js';
import { knownOrFound } from '../domain/profilesStore.js';
import { noticePageHtml, profilePageHtml, profilePagePolicy } from './profilePageHtml.js';
import type { AnonymousProfile } from '../../../../generated/profiles/types.gen.js';

/**
 * First path segments the deployment answers otherwise, or may: a profile
 * whose slug is one of them has no page (its `profile_url` would name the
 * other route). The services' prefixes, the docs, health and metrics are
 * answered before the page is asked; the dashboard (`/developers`) is
 * another module's, asked after it.
 */
export const RESERVED_PAGE_NAMES: ReadonlySet<string> = new Set([
  'developers',
  'docs',
  'avatar',
  'icons',
  'v3',
  'rest',
  'oauth2',
  'healthz',
  'readyz',
  'metrics',
  'files',
  'wp-json',
  'favicon.ico',
  'robots.txt',
]);

/** The security headers of every answer of the page: its policy, no framing, no referrer. */
const pageHeaders = (policy: string) => ({
  'Content-Security-Policy': policy,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
});

/**
 * A profile's public page at its `profile_url` (`<PUBLIC_URL>/<slug>`, or
 * an email hash), the profiles module's `onNotFound`: `GET` and `HEAD` of a
 * path of one segment that could name a profile and that no other route
 * takes. It shows what an anonymous `GET /v3/profiles/{id}` answers, is
 * counted on the anonymous lookups' per-address limit (`lookups`, with
 * their `X-RateLimit-*` headers; over it, 429 with `Retry-After`), carries
 * an ETag (304 on a match), and answers an HTML 404 page for a name that
 * is no profile.
 */
export function profilePage(
  deps: Pick<ProfilesDeps, 'config' | 'links'>,
  presented: PresentedLookups,
  lookups: LimitStep<ProfilesPrincipal>,
): Middleware {
  const imageOrigins = new Set([new URL(deps.links.avatars).origin, new URL(deps.links.icons).origin]);
  const policy = profilePagePolicy([...imageOrigins]);
  const anonymous: ProfilesPrincipal = { kind: 'anonymous' };
  const maxAge = deps.config.profiles.profileCacheSeconds;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const name = ctx.path.slice(1);
    if (!name || name.includes('/') || RESERVED_PAGE_NAMES.has(name.toLowerCase())) return next();
    const lookup = parseIdentifier(name);
    if (lookup.by === 'nothing') return next();
    setHeaders(ctx, pageHeaders(policy));
    ctx.type = 'text/html; charset=utf-8';
    try {
      const limited = lookups(ctx, anonymous);
      if (limited) await limited;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.status = error.status;
      setHeaders(ctx, error.headers);
      ctx.body = noticePageHtml('Too many requests', `Try again in ${error.headers['Retry-After']} seconds.`);
      return;
    }
    let profile: AnonymousProfile | undefined;
    try {
      // Decoded anew: a page is read by a person, now and then; the lookups keep the answer's bytes alone.
      profile = (await knownOrFound(presented.anonymous, lookup))?.decode();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      ctx.status = 503;
      ctx.set('Retry-After', String(deps.config.storeRetryAfterSeconds));
      ctx.body = noticePageHtml('Temporarily unavailable', 'Try again in a moment.');
      return;
    }
    if (!profile) {
      ctx.status = 404;
      ctx.body = noticePageHtml('Profile not found', 'No profile has this address.');
      return;
    }
    const bytes = Buffer.from(profilePageHtml(profile));
    const etag = entityTag(bytes);
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', profileCacheControl('anonymous', maxAge));
    if (ifNoneMatchMatches(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.body = bytes;
    ctx.type = 'text/html; charset=utf-8';
  };
}
