import { OWN_SERVER_PREFIXES, PREFIX } from '../../../generated/publishing/contract.gen.js';
import { Counter } from 'prom-client';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import { registerPublishingCommands } from './admin.js';
import { seedPublishingDemo } from './store/demo.js';
import { ensureAccountSite } from './store/accountSite.js';
import { revokeAccountTokens } from './store/accountTokens.js';
import { accountSites } from './store/accountSites.js';
import { publishingMigrations } from './store/migrations.js';
import { publishingSettingsFromEnv, type PublishingConfig } from './settings.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { PublishingDatabase } from './store/tables.js';
import { servedDefinition } from '../../platform/pipeline/service.js';
import { cachedLookups } from '../../platform/store/lookupCache.js';
import { hashAccessToken } from './domain/accessTokens.js';
import { publishingErrorBody, publishingUnauthenticated, readsExhausted } from './errors.js';
import { rateLimits } from '../../platform/security/limits.js';
import { createPublishingHandlers } from './handlers.js';
import type { PublishingDeps } from './deps.js';
import { routeMissAnswer } from './http/endpointLayer.js';
import { publishingPresenter } from './http/present.js';
import type {
  PublishingDefinition,
  PublishingPolicies,
  PublishingPrincipal,
  PublishingSecurity,
} from './operations.js';
import { cachedSites } from './store/cachedSites.js';
import { presentedPosts } from './flows/presentedPosts.js';
import { createKyselyPublishingStore } from './store/kyselyPublishingStore.js';
import { oauthTokenUser } from './store/oauthTokens.js';
import { appOrigins } from './http/appOrigins.js';
import { OAUTH_GRANTS_CHANGED } from '../../accounts/oauth/grants.js';
import { registeredOrigins } from '../../accounts/oauth/clients.js';
import { mediaLibrary } from './media/library.js';
import { sweepMediaFiles } from './media/sweep.js';
import { presentMediaFile } from './http/presentMediaFile.js';

/** Where REST v1.2's operations answer (`/rest/v1.2`): their paths name a server of their own in the contract. */
export const V12_PREFIX = OWN_SERVER_PREFIXES.listPostsV12;

/** Where media files answer (`/files`, outside the API's prefixes). */
export const FILES_PREFIX = OWN_SERVER_PREFIXES.getMediaFile;

/** How often media files no row names are swept, and how old such a file must be to go. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Most bearer tokens (valid or not) one instance remembers (see `ACCESS_TOKEN_CACHE_MS`). */
const TOKEN_CACHE_ENTRIES = 10_000;

/** The caller a command-line token's owner is: the user. */
const tokenUser = (userId: number): PublishingPrincipal => ({ kind: 'user', userId });

/** The publishing service: sites and posts under `/rest/v1.1`, with access tokens of its own. */
export const publishingModule: ServiceModule<PublishingDatabase, PublishingConfig> = {
  name: 'publishing',
  contractFile: 'openapi/publishing.yaml',
  settings: publishingSettingsFromEnv,
  migrations: publishingMigrations,
  seed: seedPublishingDemo,
  welcome: ensureAccountSite,
  farewell: revokeAccountTokens,
  sites: accountSites,
  admin: registerPublishingCommands,
  create: (deps) => ({
    definition: servedDefinition(publishingService(publishingDeps(deps))),
    // Browser origins of registered applications are allowed like the operator's (the store's list, read per ACCESS_TOKEN_CACHE_MS).
    onRequest: appOrigins(() => registeredOrigins(deps.db), {
      prefixes: [PREFIX, V12_PREFIX],
      operator: deps.config.publishing.corsOrigins,
      ttlMs: deps.config.publishing.accessTokenCacheMs,
    }),
  }),
};

/**
 * The one deps object of the service, built once from what the platform
 * hands the module: the store on the shared database and the read store (a
 * replica when configured), each with its sites remembered; the metrics of
 * restores and deletions; the bearer tokens' owners, remembered; the limits.
 */
export function publishingDeps(
  platform: PlatformDeps<PublishingDatabase, PlatformConfig & PublishingConfig>,
): PublishingDeps {
  const { config } = platform;
  const settings = config.publishing;
  // Sites and role capabilities remembered for SITE_CACHE_MS: two reads fewer on each post request.
  const store = cachedSites(
    createKyselyPublishingStore(
      platform.db,
      { changeMark: platform.changeMark, keptPosts: settings.renderCacheEntries },
      config.storeTimeoutMs,
    ),
    settings.siteCacheMs,
  );
  // Reads of posts, likes and replies go to a read replica when one is configured (docs/scaling.md).
  const readStore =
    platform.readDb === platform.db
      ? store
      : cachedSites(
          createKyselyPublishingStore(platform.readDb, undefined, config.storeTimeoutMs),
          settings.siteCacheMs,
        );
  const postRestores = new Counter({
    name: 'post_restores_total',
    help: 'Authorised restores: `restored` made the transition, `unchanged` found the post out of the trash.',
    labelNames: ['outcome'],
    registers: [platform.metrics],
  });
  const postDeletions = new Counter({
    name: 'post_deletions_total',
    help: 'Authorised trash requests: `trashed` moved the post to the trash, `deleted` deleted a trashed post for good, `unchanged` lost to a concurrent change.',
    labelNames: ['outcome'],
    registers: [platform.metrics],
  });
  const media = mediaLibrary(settings.media);
  // Files no row names (a crash between a file and its row) are deleted once they are an hour old, every hour.
  const sweeping = setInterval(() => {
    sweepMediaFiles(store, media.files, SWEEP_EVERY_MS).catch((error: unknown) =>
      platform.logger.warn({ err: error }, 'media sweep failed'),
    );
  }, SWEEP_EVERY_MS);
  sweeping.unref();
  // The accounts' tables are in the module's store: an OAuth access token is looked up there.
  const withAccounts = platform.db;
  const tokenOwners = cachedLookups(
    async (tokenHash: string): Promise<PublishingPrincipal | null> => {
      const userId = await store.tokenOwner(tokenHash);
      if (userId !== undefined) return tokenUser(userId);
      const oauth = await oauthTokenUser(withAccounts, tokenHash);
      return oauth ? { kind: 'user', userId: oauth.userId, grant: oauth.grant } : null;
    },
    { ttlMs: settings.accessTokenCacheMs, maxEntries: TOKEN_CACHE_ENTRIES },
  );
  // A person revoking an app ends its tokens here at once, and on other instances as soon as the news arrives.
  platform.changes.subscribe(OAUTH_GRANTS_CHANGED, tokenOwners.clear);
  return {
    contract: platform.contract,
    store,
    readStore,
    publicUrl: config.publicUrl,
    shortlinkBase: settings.shortlinkBase,
    media,
    // Kept under the store's change mark, which only SQLite has: on PostgreSQL every post is presented anew.
    presentedPosts: presentedPosts(settings.renderCacheEntries),
    onRestore: (outcome) => postRestores.inc({ outcome }),
    onDelete: (outcome) => postDeletions.inc({ outcome }),
    tokenOwners,
    corsOrigins: settings.corsOrigins,
    limits: rateLimits({
      shared: platform.redis ? { redis: platform.redis, keyPrefix: config.redisKeyPrefix } : undefined,
      refuse: readsExhausted,
      onRefused: platform.onRateLimited,
    }),
    rateLimits: settings.rateLimits,
  };
}

/**
 * The publishing service under `/rest/v1.1`: read, write, trash (or delete)
 * and restore posts, with the platform's endpoint layer around them
 * (OPTIONS, unrouted requests, CORS, and an unknown token refused
 * everywhere): its handlers, policies and security resolver, from the one
 * deps object.
 */
export function publishingService(deps: PublishingDeps): PublishingDefinition {
  const handlers = createPublishingHandlers(deps);
  /**
   * Every answer is presented the v1.1 way (envelope, pretty, JSONP, CORS), with the options the answering
   * operation declares in the contract (`fields` where it declares `fields`, JSONP where it declares `callback`);
   * a request no operation took (an unknown path or method) is never answered as JSONP.
   */
  const present = publishingPresenter(deps.corsOrigins);
  const { readsPerHour, writesPerHour, windowSeconds } = deps.rateLimits;
  // Every read (GET) counts against the client address; writes need a token and are few.
  const read = deps.limits.step({ name: 'publishing-reads', per: 'address', points: readsPerHour, windowSeconds });
  // Writes need a token, but a refused token is answered too: counted per address, as reads are, apart.
  const write = deps.limits.step({ name: 'publishing-writes', per: 'address', points: writesPerHour, windowSeconds });
  const policies: PublishingPolicies = {
    getMe: { admit: read, present },
    getMySites: { admit: read, present },
    getMySitesV12: { admit: read, present },
    getSite: { admit: read, present },
    listPosts: { admit: read, present },
    getPostCounts: { admit: read, present },
    getPost: { admit: read, present },
    getPostBySlug: { admit: read, present },
    getPostLikes: { admit: read, present },
    getMyPostLike: { admit: read, present },
    getPostReplies: { admit: read, present },
    createPost: { admit: write, present },
    updatePost: { admit: write, present },
    bulkDeletePosts: { admit: write, present },
    bulkRestorePosts: { admit: write, present },
    deletePost: { admit: write, present },
    restorePost: { admit: write, present },
    getOpenApiDocument: { admit: read, present },
    listPostsV12: { admit: read, present },
    getPostV12: { admit: read, present },
    createPostV12: { admit: write, present },
    updatePostV12: { admit: write, present },
    listPostTypes: { admit: read, present },
    listCategories: { admit: read, present },
    listTags: { admit: read, present },
    getCategoryBySlug: { admit: read, present },
    getTagBySlug: { admit: read, present },
    createCategory: { admit: write, present },
    createTag: { admit: write, present },
    updateCategory: { admit: write, present },
    updateTag: { admit: write, present },
    deleteCategory: { admit: write, present },
    deleteTag: { admit: write, present },
    getPostAutosave: { admit: read, present },
    autosavePost: { admit: write, present },
    getPostDiffs: { admit: read, present },
    listMedia: { admit: read, present },
    getMedia: { admit: read, present },
    getMediaV12: { admit: read, present },
    uploadMedia: { admit: write, present },
    updateMedia: { admit: write, present },
    deleteMedia: { admit: write, present },
    editMediaV12: { admit: write, present },
    getMediaFile: { admit: read, present: presentMediaFile(present) },
    getPageDiffs: { admit: read, present },
    getPostCountsV12: { admit: read, present },
    getPostLikesV12: { admit: read, present },
    listTaxonomyTerms: { admit: read, present },
    getTaxonomyTerm: { admit: read, present },
    createTaxonomyTerm: { admit: write, present },
    updateTaxonomyTerm: { admit: write, present },
    deleteTaxonomyTerm: { admit: write, present },
    listPostTypeTaxonomies: { admit: read, present },
  };
  const security: PublishingSecurity = {
    /**
     * A bearer token names the user it was issued to, unless revoked: one of the admin command line's tokens, or
     * an OAuth access token of the user's account (with what its grant covers). Only its hash is looked up,
     * through the instance's cache (`ACCESS_TOKEN_CACHE_MS`): a token it knows resolves without an asynchronous step.
     */
    bearerToken: (token) => deps.tokenOwners.resolve(hashAccessToken(token)),
  };
  return {
    name: 'publishing',
    prefix: PREFIX,
    otherPrefixes: [V12_PREFIX, FILES_PREFIX],
    contract: deps.contract,
    handlers,
    ignoreTrailingSlash: true,
    anonymous: { kind: 'anonymous' },
    security,
    unauthenticated: publishingUnauthenticated,
    unknownCredential: 'refuse',
    onRouteMiss: routeMissAnswer,
    policies,
    errorBody: publishingErrorBody,
    present,
  };
}
