import type { AnonymousProfile, AuthenticatedProfile } from '../../../../generated/profiles/types.gen.js';
import { shapedLookups, type ProfileDirectory, type ShapedLookups } from '../domain/profilesStore.js';
import { deepFreeze } from '../../../platform/answers/frozen.js';
import { presentProfile, type ProfileLinkBases } from './presentProfile.js';

/**
 * The presented profile an identifier names, per audience (undefined: none),
 * kept by the directory's cache in place of the profile (`shaped`): every
 * caller of an audience gets the same frozen answer, which the presenter
 * serializes and tags once, and a kept lookup holds the answer, not the
 * profile it was made from (several times its size, its keyed-only fields
 * included).
 */
export interface PresentedLookups {
  anonymous: ShapedLookups<AnonymousProfile>;
  keyed: ShapedLookups<AuthenticatedProfile>;
}

export function presentedLookups(profiles: ProfileDirectory, links: ProfileLinkBases): PresentedLookups {
  return {
    anonymous: shapedLookups(profiles, (profile) => deepFreeze(presentProfile(profile, 'anonymous', links))),
    keyed: shapedLookups(profiles, (profile) => deepFreeze(presentProfile(profile, 'keyed', links))),
  };
}
