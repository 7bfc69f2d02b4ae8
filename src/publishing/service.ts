import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Contract } from '../http/contract.js';
import type { Database } from '../store/database.js';
import type { AnyHandler, ServiceDefinition } from '../http/service.js';
import { hashAccessToken } from './domain/accessTokens.js';
import { publishingErrorBody, publishingUnauthenticated } from './errors.js';
import { createPublishingHandlers } from './handlers.js';
import { optionsAnswer, unroutedAnswer } from './http/endpointLayer.js';
import { publishingPresenter } from './http/present.js';
import type { PublishingPrincipal } from './operations.js';
import { KyselyPublishingStore } from './store/kyselyStore.js';

export interface PublishingServiceDeps {
  contract: Contract;
  db: Kysely<Database>;
  config: Config;
  /** Called once per authorised restore: whether it made the transition. */
  onRestore?: (outcome: 'restored' | 'unchanged') => void;
  /** Called once per authorised trash request: what it did. */
  onDelete?: (outcome: 'trashed' | 'deleted' | 'unchanged') => void;
}

/**
 * The publishing service under `/rest/v1.1`: read, trash (or delete) and
 * restore posts, with the platform's endpoint layer around them (OPTIONS,
 * unrouted requests, CORS, and an unknown token refused everywhere).
 */
export function createPublishingService(deps: PublishingServiceDeps): ServiceDefinition<PublishingPrincipal> {
  const store = new KyselyPublishingStore(deps.db);
  const handlers = createPublishingHandlers({
    contract: deps.contract,
    store,
    publicUrl: deps.config.publicUrl,
    shortlinkBase: deps.config.publishing.shortlinkBase,
    onRestore: deps.onRestore,
    onDelete: deps.onDelete,
  });
  return {
    name: 'publishing',
    prefix: '/rest/v1.1',
    contract: deps.contract,
    handlers: handlers as unknown as Record<string, AnyHandler>,
    ignoreTrailingSlash: true,
    anonymous: { kind: 'anonymous' },
    /** A bearer token names the user it was issued to, unless revoked; only its hash is looked up. */
    async authenticate(token) {
      const userId = await store.tokenOwner(hashAccessToken(token));
      return userId === undefined ? null : { kind: 'user', userId };
    },
    unauthenticated: publishingUnauthenticated,
    unknownCredential: 'refuse',
    beforeRouting: optionsAnswer,
    unrouted: unroutedAnswer,
    errorBody: publishingErrorBody,
    present: publishingPresenter(
      deps.config.publishing.corsOrigins,
      new Set(deps.contract.operations.filter((op) => op.queryParams.has('fields')).map((op) => op.operationId)),
      new Set(deps.contract.operations.filter((op) => op.queryParams.has('callback')).map((op) => op.operationId)),
    ),
  };
}
