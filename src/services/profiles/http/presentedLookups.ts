import type { AnonymousProfile, AuthenticatedProfile } from '../../../../generated/profiles/types.gen.js';
import { shapedLookups, type ProfileDirectory, type ShapedLookups } from '../domain/profilesStore.js';
import { EncodedJson } from '../../../platform/answers/encodedJson.js';
import { entityTag } from '../domain/entityTag.js';
import { presentProfile, type ProfileLinkBases } from './presentProfile.js';

/**
 * The presented profile an identifier names, per audience (undefined: none),
 * as the bytes and entity tag of its JSON, kept by the directory's cache in
 * place of the profile (`shaped`): every caller of an audience gets the same
 * bytes, serialized and tagged once, and a kept lookup holds them alone, not
 * the profile they were made from nor the presented object (each several
 * times their size in memory).
 */
export interface PresentedLookups {
  anonymous: ShapedLookups<EncodedJson<AnonymousProfile>>;
  keyed: ShapedLookups<EncodedJson<AuthenticatedProfile>>;
}

export function presentedLookups(profiles: ProfileDirectory, links: ProfileLinkBases): PresentedLookups {
  return {
    anonymous: shapedLookups(profiles, (profile) =>
      EncodedJson.of(presentProfile(profile, 'anonymous', links), entityTag),
    ),
    keyed: shapedLookups(profiles, (profile) => EncodedJson.of(presentProfile(profile, 'keyed', links), entityTag)),
  };
}
