import type { Config } from '../config.js';
import type { Contract } from '../http/contract.js';
import { parseIdentifier } from './domain/identifier.js';
import { presentedProfiles } from './domain/presentedProfiles.js';
import { profileNotFound } from './errors.js';
import { profileCacheControl } from './http/cachePolicy.js';
import type { ProfilesHandlers } from './operations.js';
import type { ProfileDirectory } from './store/profilesStore.js';

export interface ProfilesHandlerDeps {
  contract: Contract;
  profiles: ProfileDirectory;
  config: Pick<Config, 'publicUrl' | 'profileCacheSeconds'>;
}

/** The profiles handler map: one function per operationId of `openapi/profiles.yaml`. */
export function createProfilesHandlers(deps: ProfilesHandlerDeps): ProfilesHandlers {
  const { profiles, config } = deps;
  const presentFor = presentedProfiles(config.publicUrl);
  return {
    /** "Get profile by identifier": the profile for an email hash or slug, shaped for the caller; 404 when none. */
    async getProfileById({ path, principal }) {
      const profile = await profiles.findProfile(parseIdentifier(path.profileIdentifier));
      if (!profile) throw profileNotFound();
      const audience = principal.kind === 'key' ? 'keyed' : 'anonymous';
      return {
        status: 200,
        body: presentFor(profile, audience),
        headers: { 'Cache-Control': profileCacheControl(audience, config.profileCacheSeconds) },
      };
    },
    async getOpenApiDocument() {
      return { status: 200, body: deps.contract.document };
    },
  };
}
