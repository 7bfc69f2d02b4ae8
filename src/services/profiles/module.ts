import { OWN_SERVER_PREFIXES, PREFIX } from '../../../generated/profiles/contract.gen.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { Contract } from '../../platform/contract/types.js';
import { ApiError } from '../../platform/answers/errors.js';
import { servedDefinition } from '../../platform/pipeline/service.js';
import type { ProfilesDatabase } from './store/tables.js';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import type { ChangeBus } from '../../platform/store/changes.js';
import { API_KEYS_CHANGED, cachedActiveKeys } from '../../accounts/apiKeyCache.js';
import { registerProfilesCommands } from './admin.js';
import { profilesCors } from './http/cors.js';
import { profilesMigrations } from './store/migrations.js';
import { seedProfilesDemo } from './demo.js';
import { CONTRACT_DOWNLOADS_PER_HOUR, profilesSettingsFromEnv, type ProfilesConfig } from './settings.js';
import { avatarsBusy, profilesErrorBody, rateLimitExceeded } from './errors.js';
import { rateLimits } from '../../platform/security/limits.js';
import type { RedisClient } from '../../platform/store/redis.js';
import { createProfilesHandlers } from './handlers.js';
import { avatarImages } from './avatars/avatarImages.js';
import { authenticateApiKey } from './http/authenticateApiKey.js';
import { presentAvatarAnswer, presentJsonAnswer } from './http/presentAnswer.js';
import type { ProfilesDefinition, ProfilesPolicies, ProfilesPrincipal, ProfilesSecurity } from './operations.js';
import { cachedProfileDirectory } from './store/cachedProfileDirectory.js';
import { createKyselyProfilesStore } from './store/kyselyProfilesStore.js';
import type { ProfilesStore } from './domain/profilesStore.js';
import type { Kysely } from 'kysely';
import { findOAuthAccess, OAUTH_GRANTS_CHANGED } from '../../accounts/oauth/grants.js';
import type { AccountsTables } from '../../accounts/tables.js';
import { cachedLookups } from '../../platform/store/lookupCache.js';
import { sha256Hex } from '../../platform/security/secrets.js';
import { createMeHandlers } from './meHandlers.js';

/** Path prefix of the profiles API, from the contract's server URL (`/v3`). */
export const PROFILES_PREFIX = PREFIX;

/** Path prefix of the avatar images (`GET /avatar/{hash}` declares the site's root as its server). */
export const AVATAR_PREFIX = OWN_SERVER_PREFIXES.getAvatar;

/** Most bytes of drawn avatar images one instance keeps (64 MiB). */
const DRAWN_AVATAR_CACHE_BYTES = 64 * 1024 * 1024;

/** Most bytes of decoded uploaded images (masters, raw pixels) one instance keeps: two of 2048 pixels a side. */
const AVATAR_MASTER_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Pixels of avatar drawings one instance runs at once (one drawing of 2048
 * pixels a side, or up to 64 small ones), and the longest expected wait a
 * drawing may queue for; beyond it a drawing is answered 503.
 */
const AVATAR_DRAWINGS = { pixels: 2048 * 2048, maxWaitMs: 1000 } as const;


/** Most profile lookups one instance remembers (see `PROFILE_LOOKUP_CACHE_MS`). */
const LOOKUP_CACHE_ENTRIES = 10_000;

/** Most API keys (valid or not) one instance remembers (see `API_KEY_CACHE_MS`). */
const KEY_CACHE_ENTRIES = 10_000;

/**
 * The profiles service: profile lookups (`/v3`) and avatar images
 * (`/avatar`), over the accounts' API keys.
 */
export const profilesModule: ServiceModule<ProfilesDatabase, ProfilesConfig> = {
  name: 'profiles',
  contractFile: 'openapi/profiles.yaml',
  settings: profilesSettingsFromEnv,
  migrations: profilesMigrations,
  seed: seedProfilesDemo,
  admin: registerProfilesCommands,
  create: (deps) => ({
    definition: servedDefinition(createProfilesService(deps)),
    early: profilesCors([PROFILES_PREFIX, AVATAR_PREFIX]),
  }),
};

/** The profiles service on the shared database, with the rate limiter the configuration asks for. */
export function createProfilesService(deps: PlatformDeps<ProfilesDatabase, PlatformConfig & ProfilesConfig>): ProfilesDefinition {
  return profilesService({
    contract: deps.contract,
    config: deps.config,
    store: createKyselyProfilesStore(deps.db, deps.readDb),
    onRateLimited: deps.onRateLimited,
    changes: deps.changes,
    accounts: deps.db,
    shared: deps.redis ? { redis: deps.redis, keyPrefix: deps.config.redisKeyPrefix } : undefined,
  });
}

/**
 * The profiles service: `GET /v3/profiles/{profileIdentifier}`, anonymous or
 * keyed, and the avatar images `GET /avatar/{hash}`, from any store (tests
 * pass failing or fake ones).
 */
export function profilesService(deps: {
  contract: Contract;
  config: PlatformConfig & ProfilesConfig;
  store: ProfilesStore;
  /** Counts a request refused by a limit, by the limit's name. */
  onRateLimited?: (limit: string) => void;
  /** Where revocations are announced (the developer dashboard's); without it, keys are trusted for `API_KEY_CACHE_MS`. */
  changes?: Pick<ChangeBus, 'subscribe'>;
  /** Where the rate-limit counts are shared between instances; none: counted in this process. */
  shared?: { redis: RedisClient; keyPrefix: string };
  /** The accounts' tables, where OAuth access tokens are looked up (`/me`); without them no token is known. */
  accounts?: Kysely<AccountsTables>;
}): ProfilesDefinition {
  const profiles = cachedProfileDirectory(deps.store, {
    ttlMs: deps.config.profiles.profileLookupCacheMs,
    maxEntries: LOOKUP_CACHE_ENTRIES,
  });
  const keys = cachedActiveKeys(deps.store, { ttlMs: deps.config.profiles.apiKeyCacheMs, maxEntries: KEY_CACHE_ENTRIES });
  deps.changes?.subscribe(API_KEYS_CHANGED, keys.clear);
  const handlers = {
    ...createMeHandlers({ db: deps.accounts, profiles, baseUrls: { profiles: deps.config.publicUrl, avatars: deps.config.profiles.avatarBaseUrl } }),
    ...createProfilesHandlers({
    contract: deps.contract,
    profiles,
    avatars: avatarImages({
      maxBytes: DRAWN_AVATAR_CACHE_BYTES,
      masterBytes: AVATAR_MASTER_CACHE_BYTES,
      drawingPixels: AVATAR_DRAWINGS.pixels,
      maxWaitMs: AVATAR_DRAWINGS.maxWaitMs,
      busy: avatarsBusy,
    }),
    config: deps.config,
  }),
  };
  const { anonymousPerHour, keyedPerHour, accountPerHour, keyedPerClientPerHour, avatarsPerHour, windowSeconds } =
    deps.config.profiles.rateLimits;
  const limits = rateLimits({ shared: deps.shared, refuse: rateLimitExceeded, onRefused: deps.onRateLimited });
  /**
   * "100 requests per hour" per client address without a key; "1000 requests
   * per hour" per key and, across all the keys of every account of one inbox
   * (`canonicalInbox`: `carol+k1@` and `c.a.r.o.l@` share `carol@`'s), per
   * inbox, so a new key (a rotation, another application) or another account
   * of the same inbox is no way around the hourly allowance; and keyed
   * lookups from one client address, whatever keys it holds, are bounded too
   * (defaults; `RATE_LIMIT_*`). Every keyed operation counts against the same
   * budgets.
   */
  const lookups = limits.step<ProfilesPrincipal>(
    { name: 'profiles-anonymous', per: 'address', when: (caller) => caller.kind === 'anonymous', points: anonymousPerHour, windowSeconds },
    { name: 'profiles-key', per: (_ctx, caller) => (caller.kind === 'key' ? caller.keyId : undefined), points: keyedPerHour, windowSeconds },
    { name: 'profiles-account', per: (_ctx, caller) => (caller.kind === 'key' ? caller.inbox : undefined), points: accountPerHour, windowSeconds },
    { name: 'profiles-keyed-client', per: 'address', when: (caller) => caller.kind === 'key', points: keyedPerClientPerHour, windowSeconds },
  );
  /** An hourly limit per client address of an operation that takes no key, counted apart from every other. */
  const perAddress = (name: string, points: number) => limits.step({ name: `profiles-${name}`, per: 'address', points, windowSeconds });
  const avatars = perAddress('avatars', avatarsPerHour);
  const qrCodes = perAddress('qr-codes', deps.config.profiles.rateLimits.qrCodesPerHour);
  const services = perAddress('verified-account-services', deps.config.profiles.rateLimits.verifiedAccountServicesPerHour);
  /** The contract document: a small budget per address of its own (it is read once by a tool, not per page). */
  const documents = perAddress('documents', CONTRACT_DOWNLOADS_PER_HOUR);
  /** The signed-in person's reads (`/me`, an OAuth token) count against the client address, with a keyed caller's budget. */
  const me = perAddress('me', keyedPerHour);
  /**
   * Lookups are rate-limited and answered with an ETag (304 on a match) and
   * `Vary: Authorization`; avatar images have a per-client limit of their
   * own, carry their own ETag and cache headers and never vary by caller.
   */
  const policies: ProfilesPolicies = {
    getProfileById: { admit: lookups, present: presentJsonAnswer },
    getProfileInferredInterestsById: { admit: lookups, present: presentJsonAnswer },
    searchProfilesByVerifiedAccount: { admit: lookups, present: presentJsonAnswer },
    getAvatar: { admit: avatars, present: presentAvatarAnswer },
    getVerifiedAccountServices: { admit: services, present: presentJsonAnswer },
    getQrCodeBySha256Hash: { admit: qrCodes, present: presentAvatarAnswer },
    getOpenApiDocument: { admit: documents, present: presentJsonAnswer },
    getProfile: { admit: me },
    associatedEmail: { admit: me },
  };
  const people = cachedLookups(
    async (tokenHash: string): Promise<ProfilesPrincipal | null> => {
      const access = deps.accounts && (await findOAuthAccess(deps.accounts, tokenHash));
      return access ? { kind: 'person', accountId: access.accountId, scopes: access.scopes } : null;
    },
    { ttlMs: deps.config.profiles.apiKeyCacheMs, maxEntries: KEY_CACHE_ENTRIES },
  );
  deps.changes?.subscribe(OAUTH_GRANTS_CHANGED, people.clear);
  const security: ProfilesSecurity = {
    apiKey: (token) => authenticateApiKey(keys, token),
    /** An OAuth access token: the person it acts for and its scopes, remembered like keys (`API_KEY_CACHE_MS`); only its hash is looked up. */
    oauth: (token) => people.resolve(sha256Hex(token)),
  };
  return {
    name: 'profiles',
    prefix: PROFILES_PREFIX,
    otherPrefixes: [AVATAR_PREFIX],
    contract: deps.contract,
    handlers,
    anonymous: { kind: 'anonymous' },
    security,
    unauthenticated: () => new ApiError(401, 'unauthorized', 'You are not authorized to perform this action'),
    policies,
    errorBody: profilesErrorBody,
    present: presentJsonAnswer,
  };
}
