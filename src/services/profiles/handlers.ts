import { openApiDocumentHandler } from '../../platform/docs/servedContract.js';
import type { DrawnAvatar } from './avatars/avatarImages.js';
import { checkSizeDigits, readAvatarRequest } from './avatars/avatarRequest.js';
import { presentedLookups, type PresentedLookups } from './http/presentedLookups.js';
import { audienceOf, presentInferredInterests, presentProfile, type Audience } from './http/presentProfile.js';
import { VERIFIED_ACCOUNT_SERVICES } from './domain/verifiedAccountServices.js';
import { serviceIcon, serviceIconUrl } from './http/serviceIcons.js';
import { deepFreeze } from '../../platform/answers/frozen.js';
import { qrCode } from './flows/qrCode.js';
import { avatarFor, lookupProfile, lookupShaped, searchByVerifiedAccount } from './flows/lookups.js';
import { iconNotFound, profileNotFound } from './errors.js';
import {
  DEFAULT_AVATAR_CACHE_SECONDS,
  KEYED_CACHE_CONTROL,
  avatarCacheControl,
  profileCacheControl,
} from './http/cachePolicy.js';
import type { ProfilesHandlers } from './operations.js';
import type { Profile } from './domain/profile.js';
import type {
  AnonymousProfile,
  AuthenticatedProfile,
  VerifiedAccountServices,
} from '../../../generated/profiles/types.gen.js';
import type { ShapedLookups } from './domain/profilesStore.js';
import type { EncodedJson } from '../../platform/answers/encodedJson.js';
import type { MeOperation } from './meHandlers.js';
import type { ProfilesDeps } from './deps.js';

/**
 * The list of services with their icons' URLs (`<icons>/<id>.svg`), as one
 * frozen object, so the presenter serializes and tags it once. It changes
 * only with a release: an hour in caches.
 */
const servicesAnswer = (icons: string): VerifiedAccountServices =>
  deepFreeze({
    services: VERIFIED_ACCOUNT_SERVICES.map(({ id, label }) => ({ id, label, icon: serviceIconUrl(icons, id) })),
  });
const SERVICES_CACHE_CONTROL = 'public, max-age=3600';

/** How long a cache may keep an icon: a day (they change only with a release, and carry an entity tag). */
const ICON_CACHE_CONTROL = 'public, max-age=86400';

/**
 * The policy an icon is served with: an SVG opened on its own is a document
 * of this origin, so it may run no script, load nothing, submit nothing and
 * be framed by nothing (`sandbox`). Inline styles stay allowed, as code
 * hosts serve SVGs: they cannot run code (the icons here style themselves
 * with attributes alone).
 */
const ICON_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/** Width and height of a QR code when `size` is not given. */
const QR_CODE_SIZE = 200;

/** A drawn avatar as a `200 image/png` answer, cacheable for `maxAge` seconds. */
const imageAnswer = (image: DrawnAvatar, maxAge: number) => ({
  status: 200 as const,
  body: image.bytes,
  headers: { 'Content-Type': 'image/png', ETag: image.etag, 'Cache-Control': avatarCacheControl(maxAge) },
});

/** The profiles handler map: one function per operationId of `openapi/profiles.yaml`. */
export function createProfilesHandlers(
  deps: Pick<ProfilesDeps, 'contract' | 'profiles' | 'links' | 'avatars' | 'config' | 'publicUrl'>,
  presented: PresentedLookups = presentedLookups(deps.profiles, deps.links),
): Omit<ProfilesHandlers, MeOperation> {
  const { links, config } = deps;
  const services = servicesAnswer(links.icons);
  /** Per audience, once: its kept answers, their headers, and the answer a lookup's outcome makes (404 when none). */
  const lookupOf = (audience: Audience) => {
    const shaped: ShapedLookups<EncodedJson<AnonymousProfile | AuthenticatedProfile>> = presented[audience];
    const headers = { 'Cache-Control': profileCacheControl(audience, config.profiles.profileCacheSeconds) };
    const answer = (profile: EncodedJson<AnonymousProfile | AuthenticatedProfile> | undefined) => {
      if (!profile) throw profileNotFound();
      return { status: 200 as const, body: profile, headers };
    };
    return { shaped, answer };
  };
  const lookups = { anonymous: lookupOf('anonymous'), keyed: lookupOf('keyed') };
  return {
    /** "Get profile by identifier": the profile for an email hash or slug, shaped for the caller; 404 when none. */
    getProfileById({ path, principal }) {
      const { shaped, answer } = lookups[audienceOf(principal)];
      const found = lookupShaped(shaped, path.profileIdentifier);
      // A lookup the cache already answered is answered at once, without an asynchronous step.
      return found instanceof Promise ? found.then(answer) : answer(found);
    },

    /**
     * "Get avatar image": the owner's uploaded image at the asked size, or,
     * when there is none (or `f=y`), the default `d` asks for: a drawn image,
     * a redirect to the caller's own image, or 404. An identicon of a known
     * profile is drawn from its SHA-256, so both hashes of one email give one
     * pattern.
     */
    async getAvatar({ path, query, ctx }) {
      checkSizeDigits(ctx.query);
      const outcome = await avatarFor(deps, readAvatarRequest(path.hash, query ?? {}));
      if (outcome.kind === 'uploaded') return imageAnswer(outcome.image, config.profiles.avatarCacheSeconds);
      if (outcome.kind === 'drawn') return imageAnswer(outcome.image, DEFAULT_AVATAR_CACHE_SECONDS);
      const briefly = { 'Cache-Control': avatarCacheControl(DEFAULT_AVATAR_CACHE_SECONDS) };
      if (outcome.kind === 'not-found') {
        return { status: 404, body: { error: 'Avatar not found', code: 'not_found' }, headers: briefly };
      }
      return { status: 302, body: undefined, headers: { ...briefly, Location: outcome.url } };
    },

    /**
     * "Get inferred interests for a profile": what the store holds for the
     * profile an identifier names, for keyed callers (the contract requires a
     * key); 404 when there is no such profile.
     */
    getProfileInferredInterestsById({ path }) {
      const answer = (profile: Profile | undefined) => {
        if (!profile) throw profileNotFound();
        return {
          status: 200 as const,
          body: presentInferredInterests(profile),
          headers: { 'Cache-Control': KEYED_CACHE_CONTROL },
        };
      };
      const found = lookupProfile(deps, path.profileIdentifier);
      return found instanceof Promise ? found.then(answer) : answer(found);
    },

    /** "Get list of services supported as verified accounts": the one list profiles' verified accounts draw from. */
    getVerifiedAccountServices() {
      return { status: 200, body: services, headers: { 'Cache-Control': SERVICES_CACHE_CONTROL } };
    },

    /** "Get a verified-account service's icon": the SVG of a service of the list, by `<id>.svg`; 404 for any other name. */
    getVerifiedAccountServiceIcon({ path }) {
      const icon = serviceIcon(path.icon);
      if (!icon) throw iconNotFound();
      return {
        status: 200,
        body: icon.bytes,
        headers: {
          'Content-Type': 'image/svg+xml',
          ETag: icon.etag,
          'Cache-Control': ICON_CACHE_CONTROL,
          'Content-Security-Policy': ICON_POLICY,
        },
      };
    },

    /**
     * "Search for profiles by verified account username": the profiles with
     * a visible verified account of that username (any case), on `service`
     * when given (400 when the list of services has no such id), a page at a
     * time, each as a keyed lookup answers it.
     */
    async searchProfilesByVerifiedAccount({ query }) {
      const { username, service, page = 1, per_page: perPage = 20 } = query;
      const found = await searchByVerifiedAccount(deps, {
        username,
        ...(service === undefined ? {} : { service }),
        page,
        perPage,
      });
      return {
        status: 200 as const,
        body: {
          profiles: found.profiles.map((profile) => presentProfile(profile, 'keyed', links)),
          total_pages: found.totalPages,
        },
        headers: { 'Cache-Control': KEYED_CACHE_CONTROL },
      };
    },

    /**
     * "Get QR code for an email address' profile": a PNG of the profile's
     * URL (with the caller's `utm_*`), `type=user` with the avatar in the
     * middle; for an identifier that names no profile, of the URL it would
     * have, marked `not-found`. Drawn and kept with the avatar images.
     */
    async getQrCodeBySha256Hash({ path, query, ctx }) {
      checkSizeDigits(ctx.query);
      const { size = QR_CODE_SIZE, version, utm_medium: medium, utm_campaign: campaign, type = 'none' } = query ?? {};
      const { image, profileFound } = await qrCode(deps, {
        identifier: path.sha256_hash,
        size,
        ...(version === undefined ? {} : { version: Number(version) }),
        ...(medium === undefined ? {} : { medium }),
        ...(campaign === undefined ? {} : { campaign }),
        withAvatar: type === 'user',
      });
      return {
        status: 200,
        body: image.bytes,
        headers: {
          'Content-Type': 'image/png',
          ETag: image.etag,
          'Cache-Control': avatarCacheControl(DEFAULT_AVATAR_CACHE_SECONDS),
          'X-Gravatar-Profile-Status': profileFound ? 'enabled' : 'not-found',
        },
      };
    },

    getOpenApiDocument: openApiDocumentHandler(deps.contract),
  };
}
