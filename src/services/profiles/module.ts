import { OWN_SERVER_PREFIXES, PREFIX } from '../../../generated/profiles/contract.gen.js';
import type { PlatformConfig } from '../../platform/config.js';
import { servedDefinition } from '../../platform/pipeline/service.js';
import type { ProfilesDatabase } from './store/tables.js';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import { accountEmailHashes } from '../../accounts/accounts.js';
import { API_KEYS_CHANGED, cachedActiveKeys } from '../../accounts/apiKeyCache.js';
import { registerProfilesCommands } from './admin.js';
import { profilesCors } from './http/cors.js';
import { profilesMigrations } from './store/migrations.js';
import { seedProfilesDemo } from './demo.js';
import { CONTRACT_DOWNLOADS_PER_HOUR, profilesSettingsFromEnv, type ProfilesConfig } from './settings.js';
import { avatarsBusy, profilesErrorBody, rateLimitExceeded, unauthorized } from './errors.js';
import { rateLimits } from '../../platform/security/limits.js';
import { createProfilesHandlers } from './handlers.js';
import { avatarImages } from './avatars/avatarImages.js';
import { authenticateApiKey } from './http/authenticateApiKey.js';
import { presentAvatarAnswer, presentJsonAnswer } from './http/presentAnswer.js';
import { presentedLookups } from './http/presentedLookups.js';
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
import { profilePage } from './http/profilePage.js';
import type { Middleware } from 'koa';
import type { ProfilesDeps } from './deps.js';

/** Path prefix of the profiles API, from the contract's server URL (`/v3`). */
export const PROFILES_PREFIX = PREFIX;

/** Path prefix of the avatar images (`GET /avatar/{hash}` declares the site's root as its server). */
export const AVATAR_PREFIX = OWN_SERVER_PREFIXES.getAvatar;

/** Path prefix of the verified-account services' icons (`GET /icons/{icon}`, at the site's root too). */
export const ICONS_PREFIX = OWN_SERVER_PREFIXES.getVerifiedAccountServiceIcon;

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

/** Most API keys (valid or not) one instance remembers (see `API_KEY_CACHE_MS`). */
const KEY_CACHE_ENTRIES = 10_000;

/**
 * The profiles service: profile lookups (`/v3`), avatar images
 * (`/avatar`) and the verified-account services' icons (`/icons`), over the
 * accounts' API keys.
 */
export const profilesModule: ServiceModule<ProfilesDatabase, ProfilesConfig> = {
  name: 'profiles',
  contractFile: 'openapi/profiles.yaml',
  settings: profilesSettingsFromEnv,
  migrations: profilesMigrations,
  seed: seedProfilesDemo,
  admin: registerProfilesCommands,
  create: (deps) => {
    const { definition, page } = profilesParts(profilesDeps(deps));
    return {
      definition: servedDefinition(definition),
      onRequest: profilesCors([PROFILES_PREFIX, AVATAR_PREFIX, ICONS_PREFIX]),
      // A profile's public page at its `profile_url`, for what no route took (http/profilePage.ts).
      onNotFound: page,
    };
  },
};

/**
 * The one deps object of the service, built once from what the platform
 * hands the module: the store on the shared database (`store`: tests pass
 * failing or fake ones) behind its lookup cache, the key and OAuth-token
 * caches (forgotten on the change bus's news), the avatar images and the
 * limits.
 */
export function profilesDeps(
  platform: PlatformDeps<ProfilesDatabase, PlatformConfig & ProfilesConfig>,
  store: ProfilesStore = createKyselyProfilesStore(platform.db, platform.readDb),
): ProfilesDeps {
  const { config } = platform;
  const keys = cachedActiveKeys(store, { ttlMs: config.profiles.apiKeyCacheMs, maxEntries: KEY_CACHE_ENTRIES });
  platform.changes.subscribe(API_KEYS_CHANGED, keys.clear);
  const accounts: Kysely<AccountsTables> | undefined = platform.db;
  const tokenOwners = cachedLookups(
    async (tokenHash: string): Promise<ProfilesPrincipal | null> => {
      const access = accounts && (await findOAuthAccess(accounts, tokenHash));
      return access ? { kind: 'person', accountId: access.accountId, scopes: access.scopes } : null;
    },
    { ttlMs: config.profiles.apiKeyCacheMs, maxEntries: KEY_CACHE_ENTRIES },
  );
  platform.changes.subscribe(OAUTH_GRANTS_CHANGED, tokenOwners.clear);
  return {
    contract: platform.contract,
    config,
    profiles: cachedProfileDirectory(store, {
      ttlMs: config.profiles.profileLookupCacheMs,
      maxEntries: config.profiles.profileLookupCacheEntries,
      changeMark: platform.changeMark,
    }),
    links: {
      profiles: config.publicUrl,
      avatars: config.profiles.avatarBaseUrl,
      icons: `${config.publicUrl}${ICONS_PREFIX}`,
    },
    keys,
    tokenOwners,
    accounts: accounts && { emailHashesOf: (accountId) => accountEmailHashes(accounts, accountId) },
    publicUrl: config.publicUrl,
    avatars: avatarImages({
      maxBytes: DRAWN_AVATAR_CACHE_BYTES,
      masterBytes: AVATAR_MASTER_CACHE_BYTES,
      drawingPixels: AVATAR_DRAWINGS.pixels,
      maxWaitMs: AVATAR_DRAWINGS.maxWaitMs,
      busy: avatarsBusy,
    }),
    limits: rateLimits({
      shared: platform.redis ? { redis: platform.redis, keyPrefix: config.redisKeyPrefix } : undefined,
      refuse: rateLimitExceeded,
      onRefused: platform.onRateLimited,
    }),
  };
}

/**
 * The profiles service: `GET /v3/profiles/{profileIdentifier}`, anonymous or
 * keyed, the avatar images `GET /avatar/{hash}`, and the signed-in person's
 * `/me`: its handlers, policies and security resolvers, from the one deps
 * object.
 */
export function profilesService(deps: ProfilesDeps): ProfilesDefinition {
  return profilesParts(deps).definition;
}

/** The profiles service's definition, and its public profile pages (what no route took). */
export function profilesParts(deps: ProfilesDeps): { definition: ProfilesDefinition; page: Middleware } {
  const presented = presentedLookups(deps.profiles, deps.links);
  const handlers = { ...createMeHandlers(deps), ...createProfilesHandlers(deps, presented) };
  const { limits } = deps;
  const { anonymousPerHour, keyedPerHour, accountPerHour, keyedPerClientPerHour, avatarsPerHour, windowSeconds } =
    deps.config.profiles.rateLimits;
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
    {
      name: 'profiles-anonymous',
      per: 'address',
      when: (caller) => caller.kind === 'anonymous',
      points: anonymousPerHour,
      windowSeconds,
    },
    {
      name: 'profiles-key',
      per: (_ctx, caller) => (caller.kind === 'key' ? caller.keyId : undefined),
      points: keyedPerHour,
      windowSeconds,
    },
    {
      name: 'profiles-account',
      per: (_ctx, caller) => (caller.kind === 'key' ? caller.inbox : undefined),
      points: accountPerHour,
      windowSeconds,
    },
    {
      name: 'profiles-keyed-client',
      per: 'address',
      when: (caller) => caller.kind === 'key',
      points: keyedPerClientPerHour,
      windowSeconds,
    },
  );
  /** An hourly limit per client address of an operation that takes no key, counted apart from every other. */
  const perAddress = (name: string, points: number) =>
    limits.step({ name: `profiles-${name}`, per: 'address', points, windowSeconds });
  const avatars = perAddress('avatars', avatarsPerHour);
  const qrCodes = perAddress('qr-codes', deps.config.profiles.rateLimits.qrCodesPerHour);
  const icons = perAddress('icons', deps.config.profiles.rateLimits.iconsPerHour);
  const services = perAddress(
    'verified-account-services',
    deps.config.profiles.rateLimits.verifiedAccountServicesPerHour,
  );
  /** The contract document: a small budget per address of its own (it is read once by a tool, not per page). */
  const documents = perAddress('documents', CONTRACT_DOWNLOADS_PER_HOUR);
  /** The signed-in person's reads (`/me`, an OAuth token) count against the client address, with a keyed caller's budget. */
  const me = perAddress('me', keyedPerHour);
  /**
   * Lookups are rate-limited and answered with an ETag (304 on a match) and
   * `Vary: Authorization`; avatar images have a per-client limit of their
   * own, carry their own ETag and cache headers and never vary by caller.
   */
  const anonymous: ProfilesPrincipal = { kind: 'anonymous' };
  const policies: ProfilesPolicies = {
    getProfileById: { admit: lookups, present: presentJsonAnswer },
    getProfileInferredInterestsById: { admit: lookups, present: presentJsonAnswer },
    searchProfilesByVerifiedAccount: { admit: lookups, present: presentJsonAnswer },
    getAvatar: { admit: avatars, present: presentAvatarAnswer },
    getVerifiedAccountServices: { admit: services, present: presentJsonAnswer },
    getQrCodeBySha256Hash: { admit: qrCodes, present: presentAvatarAnswer },
    getVerifiedAccountServiceIcon: { admit: icons, present: presentAvatarAnswer },
    getOpenApiDocument: { admit: documents, present: presentJsonAnswer },
    getProfile: { admit: me },
    associatedEmail: { admit: me },
  };
  const security: ProfilesSecurity = {
    apiKey: (token) => authenticateApiKey(deps.keys, token),
    /** An OAuth access token: the person it acts for and its scopes, remembered like keys (`API_KEY_CACHE_MS`); only its hash is looked up. */
    oauth: (token) => deps.tokenOwners.resolve(sha256Hex(token)),
  };
  const definition: ProfilesDefinition = {
    name: 'profiles',
    prefix: PROFILES_PREFIX,
    otherPrefixes: [AVATAR_PREFIX, ICONS_PREFIX],
    contract: deps.contract,
    handlers,
    anonymous,
    security,
    unauthenticated: unauthorized,
    policies,
    errorBody: profilesErrorBody,
    present: presentJsonAnswer,
  };
  return {
    definition,
    page: profilePage(deps, presented, lookups),
  };
}
