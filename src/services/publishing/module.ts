import { PREFIX } from '../../../generated/publishing/contract.gen.js';
import { Counter } from 'prom-client';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import { registerPublishingCommands } from './admin.js';
import { seedPublishingDemo } from './store/demo.js';
import { publishingMigrations } from './store/migrations.js';
import { publishingSettingsFromEnv, type PublishingConfig } from './settings.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { PublishingTables } from './store/tables.js';
import { servedDefinition } from '../../platform/http/service.js';
import { cachedLookups } from '../../platform/store/lookupCache.js';
import { hashAccessToken } from './domain/accessTokens.js';
import { publishingErrorBody, publishingUnauthenticated, readsExhausted } from './errors.js';
import { rateLimits } from '../../platform/security/limits.js';
import { createPublishingHandlers } from './handlers.js';
import { optionsAnswer, unroutedAnswer } from './http/endpointLayer.js';
import { publishingPresenter } from './http/present.js';
import type { PublishingDefinition, PublishingPolicies, PublishingPrincipal, PublishingSecurity } from './operations.js';
import { cachedSites } from './store/cachedSites.js';
import { createKyselyPublishingStore } from './store/kyselyPublishingStore.js';

/** Most bearer tokens (valid or not) one instance remembers (see `ACCESS_TOKEN_CACHE_MS`). */
const TOKEN_CACHE_ENTRIES = 10_000;

/** The caller a token's owner is: the user, or none for an unknown or revoked token. */
const tokenUser = (userId: number | undefined): PublishingPrincipal | null => (userId === undefined ? null : { kind: 'user', userId });

/** The publishing service: sites and posts under `/rest/v1.1`, with access tokens of its own. */
export const publishingModule: ServiceModule<PublishingTables, PublishingConfig> = {
  name: 'publishing',
  contractFile: 'openapi/publishing.yaml',
  settings: publishingSettingsFromEnv,
  migrations: publishingMigrations,
  seed: seedPublishingDemo,
  admin: registerPublishingCommands,
  create: (deps) => ({ definition: servedDefinition(createPublishingService(deps)) }),
};

/**
 * The publishing service under `/rest/v1.1`: read, trash (or delete) and
 * restore posts, with the platform's endpoint layer around them (OPTIONS,
 * unrouted requests, CORS, and an unknown token refused everywhere).
 */
export function createPublishingService(deps: PlatformDeps<PublishingTables, PlatformConfig & PublishingConfig>): PublishingDefinition {
  // Sites and role capabilities remembered for SITE_CACHE_MS: two reads fewer on each post request.
  const store = cachedSites(createKyselyPublishingStore(deps.db), deps.config.publishing.siteCacheMs);
  // Reads of posts, likes and replies go to a read replica when one is configured (docs/scaling.md).
  const readStore = deps.readDb === deps.db ? store : cachedSites(createKyselyPublishingStore(deps.readDb), deps.config.publishing.siteCacheMs);
  const postRestores = new Counter({
    name: 'post_restores_total',
    help: 'Authorised restores: `restored` made the transition, `unchanged` found the post out of the trash.',
    labelNames: ['outcome'],
    registers: [deps.metrics],
  });
  const postDeletions = new Counter({
    name: 'post_deletions_total',
    help: 'Authorised trash requests: `trashed` moved the post to the trash, `deleted` deleted a trashed post for good, `unchanged` lost to a concurrent change.',
    labelNames: ['outcome'],
    registers: [deps.metrics],
  });
  const handlers = createPublishingHandlers({
    contract: deps.contract,
    store,
    readStore,
    publicUrl: deps.config.publicUrl,
    shortlinkBase: deps.config.publishing.shortlinkBase,
    onRestore: (outcome) => postRestores.inc({ outcome }),
    onDelete: (outcome) => postDeletions.inc({ outcome }),
  });
  /**
   * Every answer is presented the v1.1 way (envelope, pretty, JSONP, CORS); `fields` filters only the
   * post operations' posts. Every operation declares `callback` (JSONP): the compiler checks it (operations.ts).
   */
  const present = publishingPresenter(deps.config.publishing.corsOrigins, { fieldsApply: false, callbackApplies: true });
  const presentPost = publishingPresenter(deps.config.publishing.corsOrigins, { fieldsApply: true, callbackApplies: true });
  // Every read (GET) counts against the client address; writes need a token and are few.
  const limits = rateLimits({
    shared: deps.redis ? { redis: deps.redis, keyPrefix: deps.config.redisKeyPrefix } : undefined,
    refuse: readsExhausted,
    onRefused: deps.onRateLimited,
  });
  const { readsPerHour, writesPerHour, windowSeconds } = deps.config.publishing.rateLimits;
  const read = limits.step({ name: 'publishing-reads', per: 'address', points: readsPerHour, windowSeconds });
  // Writes need a token, but a refused token is answered too: counted per address, as reads are, apart.
  const write = limits.step({ name: 'publishing-writes', per: 'address', points: writesPerHour, windowSeconds });
  const policies: PublishingPolicies = {
    getSite: { admit: read, present },
    getPost: { admit: read, present: presentPost },
    getPostLikes: { admit: read, present },
    getMyPostLike: { admit: read, present },
    getPostReplies: { admit: read, present },
    deletePost: { admit: write, present: presentPost },
    restorePost: { admit: write, present: presentPost },
    getOpenApiDocument: { admit: read, present },
  };
  const owners = cachedLookups((tokenHash: string) => store.tokenOwner(tokenHash), {
    ttlMs: deps.config.publishing.accessTokenCacheMs,
    maxEntries: TOKEN_CACHE_ENTRIES,
  });
  const security: PublishingSecurity = {
    /**
     * A bearer token names the user it was issued to, unless revoked; only its hash is looked up, through
     * the instance's cache (`ACCESS_TOKEN_CACHE_MS`): a token it knows resolves without an asynchronous step.
     */
    bearerToken(token) {
      const tokenHash = hashAccessToken(token);
      const known = owners.known(tokenHash);
      return known ? tokenUser(known.value) : owners.lookup(tokenHash).then(tokenUser);
    },
  };
  return {
    name: 'publishing',
    prefix: PREFIX,
    contract: deps.contract,
    handlers,
    ignoreTrailingSlash: true,
    anonymous: { kind: 'anonymous' },
    security,
    unauthenticated: publishingUnauthenticated,
    unknownCredential: 'refuse',
    beforeRouting: optionsAnswer,
    unrouted: unroutedAnswer,
    policies,
    errorBody: publishingErrorBody,
    // A request no operation took (an unknown path or method) is never answered as JSONP.
    present: publishingPresenter(deps.config.publishing.corsOrigins, { fieldsApply: false, callbackApplies: false }),
  };
}
