import type { AnonymousProfile, AuthenticatedProfile } from '../../../../generated/profiles/types.gen.js';
import type { Profile } from '../domain/profile.js';
import { deepFreeze } from '../../../platform/answers/frozen.js';
import { presentProfile, type Audience, type ProfileLinkBases } from './presentProfile.js';

type Presented = AnonymousProfile | AuthenticatedProfile;

/**
 * `presentProfile` remembered per profile object and audience: while the
 * lookup cache hands out the same profile, every caller of an audience gets
 * the same frozen answer (which the presenter serializes once).
 */
export interface PresentedProfiles {
  (profile: Profile, audience: 'anonymous'): AnonymousProfile;
  (profile: Profile, audience: 'keyed'): AuthenticatedProfile;
  (profile: Profile, audience: Audience): Presented;
}

export function presentedProfiles(links: ProfileLinkBases): PresentedProfiles {
  const byProfile = new WeakMap<Profile, Partial<Record<Audience, Presented>>>();
  // Typed as `presentProfile` is, audience by audience (the keyed one is the full profile).
  function presented(profile: Profile, audience: 'anonymous'): AnonymousProfile;
  function presented(profile: Profile, audience: 'keyed'): AuthenticatedProfile;
  function presented(profile: Profile, audience: Audience): Presented;
  function presented(profile: Profile, audience: Audience): Presented {
    let answers = byProfile.get(profile);
    if (!answers) byProfile.set(profile, (answers = {}));
    return (answers[audience] ??= deepFreeze(presentProfile(profile, audience, links)));
  }
  return presented;
}
