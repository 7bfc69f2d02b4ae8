import type { AuthenticatedProfile } from '../../../generated/profiles/types.gen.js';
import { OAUTH_SCOPES } from '../../accounts/oauth/scopes.js';
import { ApiError } from '../../platform/answers/errors.js';
import { insufficientScope, unauthorized } from './errors.js';
import { presentedProfiles } from './domain/presentedProfiles.js';
import type { ProfilesHandlers, ProfilesPrincipal } from './operations.js';
import type { ProfilesDeps } from './deps.js';

/** The signed-in person's operations (the `oauth` scheme's). */
export type MeOperation = 'getProfile' | 'associatedEmail';

// A principal that is no person, or whose account is gone, holds a token that no longer names anyone: invalid_token.
const notAuthorized = () => unauthorized('invalid');
const profileDisabled = () => new ApiError(404, 'disabled', 'Profile is disabled');

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
export function createMeHandlers(deps: Pick<ProfilesDeps, 'accounts' | 'profiles' | 'links'>): Pick<ProfilesHandlers, MeOperation> {
  const presentFor = presentedProfiles(deps.links);
  const emailOf = async (accountId: string) => {
    // No person is ever resolved without the accounts' tables.
    const account = await deps.accounts?.selectFrom('accounts').select(['email_sha256', 'email_md5']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw notAuthorized();
    return account;
  };
  return {
    /** "Get profile information for the authenticated user": the full profile, as a keyed lookup shows it. */
    async getProfile({ principal }) {
      const { email_sha256: sha256 } = await emailOf(personOf(principal));
      const profile = await deps.profiles.findProfile({ by: 'sha256', value: sha256 });
      if (!profile) throw profileDisabled();
      // The keyed audience's presentation is the full profile.
      return { status: 200, body: presentFor(profile, 'keyed') as AuthenticatedProfile };
    },
    /** "Check if the email is associated with the authenticated user": its SHA-256 or MD5 hex, any letter case. */
    async associatedEmail({ query, principal }) {
      const account = await emailOf(personOf(principal));
      const hash = query.email_hash.toLowerCase();
      return { status: 200, body: { associated: hash === account.email_sha256 || hash === account.email_md5 } };
    },
  };
}
