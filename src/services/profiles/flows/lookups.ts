import type { DrawnAvatar } from '../avatars/avatarImages.js';
import type { AvatarRequest } from '../avatars/avatarRequest.js';
import { parseIdentifier } from '../domain/identifier.js';
import type { Profile } from '../domain/profile.js';
import { knownOrFound, type ShapedLookups } from '../domain/profilesStore.js';
import { verifiedAccountService } from '../domain/verifiedAccountServices.js';
import { unknownVerifiedAccountService } from '../errors.js';
import type { FlowDeps } from './deps.js';

/**
 * The profile an identifier (an email hash or a slug) names, if any. A
 * lookup this instance already remembers is answered at once, without an
 * asynchronous step (the lookup's hot path); any other is a promise.
 */
export function lookupProfile(
  deps: Pick<FlowDeps, 'profiles'>,
  identifier: string,
): Profile | undefined | Promise<Profile | undefined> {
  const lookup = parseIdentifier(identifier);
  const known = deps.profiles.knownProfile?.(lookup);
  return known ? known.value : deps.profiles.findProfile(lookup);
}

/**
 * What a shape (a presented answer, say) of the profile an identifier names
 * is, if there is one: kept by the directory's cache in place of the profile
 * (`ProfileDirectory.shaped`), and answered at once, without an asynchronous
 * step, when kept.
 */
export function lookupShaped<T>(shaped: ShapedLookups<T>, identifier: string): T | undefined | Promise<T | undefined> {
  return knownOrFound(shaped, parseIdentifier(identifier));
}

/** What an avatar request is answered with: an image (kept for the owner's time, or the default's), a redirect, or none. */
export type AvatarOutcome =
  | { kind: 'uploaded'; image: DrawnAvatar }
  | { kind: 'drawn'; image: DrawnAvatar }
  | { kind: 'redirect'; url: string }
  | { kind: 'not-found' };

/**
 * The owner's uploaded image at the asked size, or, when there is none (or
 * `f=y`), the default the request asks for: a drawn image, a redirect to the
 * caller's own image, or none. An identicon of a known profile is drawn from
 * its SHA-256, so both hashes of one email give one pattern.
 */
export async function avatarFor(
  deps: Pick<FlowDeps, 'profiles' | 'avatars'>,
  request: AvatarRequest,
): Promise<AvatarOutcome> {
  const { profiles, avatars } = deps;
  const profile = request.lookup.by === 'nothing' ? undefined : await profiles.findProfile(request.lookup);
  const digest = profile?.avatarDigest;
  if (digest && !request.forceDefault) {
    const image = await avatars.uploaded(digest, request.size, () => profiles.readAvatarImage(digest));
    // Undefined when the image was replaced since the lookup: the default answers this once.
    if (image) return { kind: 'uploaded', image };
  }
  const { fallback } = request;
  if (fallback.kind === 'not-found') return { kind: 'not-found' };
  if (fallback.kind === 'redirect') return { kind: 'redirect', url: fallback.url };
  return {
    kind: 'drawn',
    image: await avatars.generated(fallback.style, profile?.emailHash ?? request.seed, request.size),
  };
}

/**
 * The profiles with a visible verified account of a username (any case), on
 * `service` when given (refused when the list of services has no such id),
 * one page of them, with the number of pages.
 */
export async function searchByVerifiedAccount(
  deps: Pick<FlowDeps, 'profiles'>,
  search: { username: string; service?: string; page: number; perPage: number },
): Promise<{ profiles: Profile[]; totalPages: number }> {
  const { username, service, page, perPage } = search;
  if (service !== undefined && !verifiedAccountService(service)) throw unknownVerifiedAccountService();
  const found = await deps.profiles.searchByVerifiedAccount({
    username: username.toLowerCase(),
    ...(service === undefined ? {} : { service }),
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return { profiles: found.profiles, totalPages: Math.ceil(found.total / perPage) };
}
