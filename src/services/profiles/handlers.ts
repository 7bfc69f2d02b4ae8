import type { PlatformConfig } from '../../platform/config.js';
import type { Contract } from '../../platform/http/contract.js';
import type { ProfilesConfig } from './settings.js';
import { openApiDocumentHandler } from '../../platform/http/handlers.js';
import type { AvatarImages, DrawnAvatar } from './avatars/avatarImages.js';
import { checkSizeDigits, readAvatarRequest } from './avatars/avatarRequest.js';
import { parseIdentifier } from './domain/identifier.js';
import { presentedProfiles } from './domain/presentedProfiles.js';
import { profileNotFound } from './errors.js';
import { DEFAULT_AVATAR_CACHE_SECONDS, avatarCacheControl, profileCacheControl } from './http/cachePolicy.js';
import type { ProfilesHandlers, ProfilesPrincipal } from './operations.js';
import type { ProfileDirectory } from './store/profilesStore.js';
import type { Profile } from './domain/profile.js';
import type { MeOperation } from './meHandlers.js';

export interface ProfilesHandlerDeps {
  contract: Contract;
  profiles: ProfileDirectory;
  avatars: AvatarImages;
  config: Pick<PlatformConfig, 'publicUrl'> & { profiles: Pick<ProfilesConfig['profiles'], 'avatarBaseUrl' | 'profileCacheSeconds' | 'avatarCacheSeconds'> };
}

/** A drawn avatar as a `200 image/png` answer, cacheable for `maxAge` seconds. */
const imageAnswer = (image: DrawnAvatar, maxAge: number) => ({
  status: 200 as const,
  body: image.bytes,
  headers: { 'Content-Type': 'image/png', ETag: image.etag, 'Cache-Control': avatarCacheControl(maxAge) },
});

/** The profiles handler map: one function per operationId of `openapi/profiles.yaml`. */
export function createProfilesHandlers(deps: ProfilesHandlerDeps): Omit<ProfilesHandlers, MeOperation> {
  const { profiles, avatars, config } = deps;
  const presentFor = presentedProfiles({ profiles: config.publicUrl, avatars: config.profiles.avatarBaseUrl });
  /** The answer to a lookup: the profile shaped for the caller, cacheable for their audience; 404 when none. */
  const profileAnswer = (profile: Profile | undefined, principal: ProfilesPrincipal) => {
    if (!profile) throw profileNotFound();
    const audience = principal.kind === 'key' ? 'keyed' : 'anonymous';
    return {
      status: 200 as const,
      body: presentFor(profile, audience),
      headers: { 'Cache-Control': profileCacheControl(audience, config.profiles.profileCacheSeconds) },
    };
  };
  return {
    /** "Get profile by identifier": the profile for an email hash or slug, shaped for the caller; 404 when none. */
    getProfileById({ path, principal }) {
      const lookup = parseIdentifier(path.profileIdentifier);
      // A lookup the cache already answered is answered at once, without an asynchronous step.
      const known = profiles.knownProfile?.(lookup);
      if (known) return profileAnswer(known.value, principal);
      return profiles.findProfile(lookup).then((profile) => profileAnswer(profile, principal));
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
      const request = readAvatarRequest(path.hash, query ?? {});
      const profile = request.lookup.by === 'nothing' ? undefined : await profiles.findProfile(request.lookup);
      const digest = profile?.avatarDigest;
      if (digest && !request.forceDefault) {
        const image = await avatars.uploaded(digest, request.size, () => profiles.readAvatarImage(digest));
        // Undefined when the image was replaced since the lookup: the default answers this once.
        if (image) return imageAnswer(image, config.profiles.avatarCacheSeconds);
      }
      const { fallback } = request;
      const briefly = { 'Cache-Control': avatarCacheControl(DEFAULT_AVATAR_CACHE_SECONDS) };
      if (fallback.kind === 'not-found') {
        return { status: 404, body: { error: 'Avatar not found', code: 'not_found' }, headers: briefly };
      }
      if (fallback.kind === 'redirect') return { status: 302, body: undefined, headers: { ...briefly, Location: fallback.url } };
      const image = await avatars.generated(fallback.style, profile?.emailHash ?? request.seed, request.size);
      return imageAnswer(image, DEFAULT_AVATAR_CACHE_SECONDS);
    },

    getOpenApiDocument: openApiDocumentHandler(deps.contract),
  };
}
