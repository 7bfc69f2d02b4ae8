import { ApiError } from '../http/errors.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Contract } from '../http/contract.js';
import type { Database } from '../store/database.js';
import type { AnyHandler, ServiceDefinition } from '../http/service.js';
import { profilesErrorBody } from './errors.js';
import { createProfilesHandlers } from './handlers.js';
import type { ProfilesPrincipal } from './operations.js';

export interface ProfilesServiceDeps {
  contract: Contract;
  db: Kysely<Database>;
  config: Config;
  logger: Logger;
}

/** The profiles service: `GET /v3/profiles/{profileIdentifier}`, anonymous or keyed. */
export function createProfilesService(deps: ProfilesServiceDeps): ServiceDefinition<ProfilesPrincipal> {
  const handlers = createProfilesHandlers(deps);
  return {
    name: 'profiles',
    prefix: '/v3',
    contract: deps.contract,
    handlers: handlers as unknown as Record<string, AnyHandler>,
    anonymous: { kind: 'anonymous' },
    async authenticate() {
      return null;
    },
    unauthenticated: () => new ApiError(401, 'unauthorized', 'Unauthorized'),
    errorBody: profilesErrorBody,
  };
}
