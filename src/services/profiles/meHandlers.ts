import { OAUTH_SCOPES } from '../../accounts/oauth/scopes.js';
import { insufficientScope, notAuthorized } from './errors.js';
import { isMyEmailHash, readMyProfile } from './flows/me.js';
import { presentProfile } from './http/presentProfile.js';
import type { ProfilesHandlers, ProfilesPrincipal } from './operations.js';
import type { ProfilesDeps } from './deps.js';

/** The signed-in person's operations (the `oauth` scheme's). */
export type MeOperation = 'getProfile' | 'associatedEmail';

/** The account an OAuth token of the `profile` scope acts for: 401 without one, 403 without the scope. */
function personOf(principal: ProfilesPrincipal): string {
  if (principal.kind !== 'person') throw notAuthorized();
  if (!principal.scopes.has(OAUTH_SCOPES.profile)) throw insufficientScope(OAUTH_SCOPES.profile);
  return principal.accountId;
}

/**
 * The signed-in person's reads (`GET /me/profile`, `GET /me/associated-email`),
 * as the real profile API has them: read-only, with an OAuth token of the
 * `profile` scope.
 */
export function createMeHandlers(
  deps: Pick<ProfilesDeps, 'accounts' | 'profiles' | 'links'>,
): Pick<ProfilesHandlers, MeOperation> {
  return {
    /** "Get profile information for the authenticated user": the full profile, as a keyed lookup shows it. */
    async getProfile({ principal }) {
      const profile = await readMyProfile(deps, personOf(principal));
      // The keyed audience's presentation is the full profile.
      return { status: 200, body: presentProfile(profile, 'keyed', deps.links) };
    },
    /** "Check if the email is associated with the authenticated user": its SHA-256 or MD5 hex, any letter case. */
    async associatedEmail({ query, principal }) {
      return { status: 200, body: { associated: await isMyEmailHash(deps, personOf(principal), query.email_hash) } };
    },
  };
}
