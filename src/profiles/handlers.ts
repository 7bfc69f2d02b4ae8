import type { Contract } from '../http/contract.js';
import { notImplemented } from '../http/errors.js';
import type { ProfilesHandlers } from './operations.js';

export interface ProfilesHandlerDeps {
  contract: Contract;
}

/** The profiles handler map: one function per operationId of `openapi/profiles.yaml`. */
export function createProfilesHandlers(deps: ProfilesHandlerDeps): ProfilesHandlers {
  return {
    async getProfileById() {
      throw notImplemented();
    },
    async getOpenApiDocument() {
      return { status: 200, body: deps.contract.document };
    },
  };
}
