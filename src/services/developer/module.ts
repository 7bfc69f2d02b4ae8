import { PREFIX } from '../../../generated/developer/contract.gen.js';
import { announcingKeyChanges, API_KEYS_CHANGED } from '../../accounts/apiKeyCache.js';
import { authorizationServer, type AuthorizationServer } from '../../accounts/oauth/authorizationServer.js';
import { OAUTH_GRANTS_CHANGED } from '../../accounts/oauth/grants.js';
import type { PlatformConfig } from '../../platform/config.js';
import { servedDefinition } from '../../platform/pipeline/service.js';
import { createMailer } from './mail/mailer.js';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import { concurrencyGate } from '../../platform/ops/concurrencyGate.js';
import { projectFile } from '../../platform/projectRoot.js';
import { rateLimits } from '../../platform/security/limits.js';
import { keyedHash } from '../../platform/security/secrets.js';
import type { DeveloperDeps } from './deps.js';
import { gatedPasswords } from './flows/credentials.js';
import { MAX_PASSWORD_COST, MIN_PASSWORD_COST, TEST_PASSWORD_COST } from './domain/password.js';
import { resolveSession } from './flows/sessions.js';
import { developerErrorBody, passwordsBusy, tooManyRequests, unauthenticated } from './errors.js';
import { createDeveloperHandlers } from './handlers.js';
import { admitSteps } from './http/admitRequest.js';
import { AUTHORIZATION_ERROR_PAGE_POLICY, authorizationErrorPage } from './http/authorizationErrorPage.js';
import { dashboardPage } from './http/dashboardPage.js';
import { presentDeveloperAnswer } from './http/presentAnswer.js';
import { createOAuthHandlers } from './oauthHandlers.js';
import type { DeveloperDefinition, DeveloperPolicies, DeveloperSecurity } from './operations.js';
import { createKeyRotationLimit } from './rateLimit/keyRotations.js';
import { createLoginThrottle } from './rateLimit/loginThrottle.js';
import { createMailLimit } from './rateLimit/mailLimit.js';
import { developerSettingsFromEnv, type DeveloperConfig, type DeveloperSettings } from './settings.js';
import { createKyselyDeveloperStore } from './store/kyselyDeveloperStore.js';
import { oauthConsents } from './store/oauthConsents.js';
import { developerMigrations } from './store/migrations.js';
import { seedDeveloperDemo } from './demo.js';
import { registerDeveloperCommands } from './admin.js';
import type { DeveloperDatabase } from './store/tables.js';

/** Path prefix of the dashboard API (the contract's server URL ends in `/developer/v1`). */
export const DEVELOPER_PREFIX = PREFIX;

/** The developer dashboard: its page, and its API of accounts, sessions, applications and keys. */
export const developerModule: ServiceModule<DeveloperDatabase, DeveloperConfig> = {
  name: 'developer',
  contractFile: 'openapi/developer.yaml',
  // The OAuth 2 authorization server it serves in its `onRequest` step (the library's routes), described apart.
  documents: ['oauth'],
  settings: developerSettingsFromEnv,
  migrations: developerMigrations,
  seed: seedDeveloperDemo,
  admin: registerDeveloperCommands,
  create: (deps) => {
    const server = authorizationServer({
      db: deps.db,
      sites: deps.sites,
      publicUrl: deps.config.publicUrl,
      consentPage: '/developers',
      consentApi: `${PREFIX}/oauth/consents`,
      limits: deps.config.developer.oauthLimits,
      storeRetryAfterSeconds: deps.config.storeRetryAfterSeconds,
      logger: deps.logger,
      redis: deps.redis ? { client: deps.redis, keyPrefix: deps.config.redisKeyPrefix } : undefined,
      // A token revoked here stops working at once on this instance, and on the others as soon as the bus tells them.
      onRevoked: () => deps.changes.publish(OAUTH_GRANTS_CHANGED),
      // A wrong redirect URI or an unknown app shows the person the dashboard's error page, not raw JSON.
      errorPage: { render: authorizationErrorPage, policy: AUTHORIZATION_ERROR_PAGE_POLICY },
    });
    return {
      definition: servedDefinition(developerService(developerDeps(deps, server))),
      // The OAuth 2 authorization server (`/oauth2/…`, oidc-provider): outside the contract pipeline, its own protocol.
      onRequest: server.hook,
      onNotFound: dashboardPage(
        projectFile('dist/developers'),
        deps.config.publicUrlFromEnv ? deps.config.publicUrl : undefined,
      ),
    };
  },
};

/** A first guess of one password hash's time (scrypt at the default cost), until the gate has timed its own. */
const PASSWORD_HASH_MS = 400;

/**
 * Emails asked for in an hour per account (verification, new address), per new address, and per address
 * and client address together (password reset).
 */
const MAILS_PER_HOUR = 5;

/** Reset links one address gets in an hour, whoever asks: wider than one asker's share, so a stranger cannot use it up alone. */
const RESETS_PER_ADDRESS_PER_HOUR = 20;

/** The dashboard's sender: a no-reply address at the deployment's own host name. */
const senderOf = (publicUrl: string) => `Developer dashboard <no-reply@${new URL(publicUrl).hostname}>`;

/** The settings the service cannot start with, refused with a message naming the variable. */
function checkSettings(settings: DeveloperSettings): void {
  const { passwordCost, passwordCostFloor, passwordHashes } = settings;
  if (!(passwordCostFloor >= TEST_PASSWORD_COST && passwordCostFloor <= MIN_PASSWORD_COST))
    throw new Error(`the password cost's floor must be from ${TEST_PASSWORD_COST} to ${MIN_PASSWORD_COST}`);
  if (!(passwordCost >= passwordCostFloor && passwordCost <= MAX_PASSWORD_COST)) {
    throw new Error(
      `DEVELOPER_PASSWORD_COST must be from ${passwordCostFloor} to ${MAX_PASSWORD_COST}, got ${passwordCost}`,
    );
  }
  if (passwordHashes.running < 1)
    throw new Error(`DEVELOPER_PASSWORD_HASHES must be at least 1, got ${passwordHashes.running}`);
}

/**
 * The one deps object of the service, built once from what the platform
 * hands the module: the store on the shared database (key changes
 * announced on the change bus), the limits, the login attempts, rotations
 * and mails counted in the same store, passwords through their gate, the
 * mailer, and the consent page's requests on the authorization server.
 */
export function developerDeps(
  deps: PlatformDeps<DeveloperDatabase, PlatformConfig & DeveloperConfig>,
  server: AuthorizationServer,
): DeveloperDeps {
  const { config } = deps;
  const settings = config.developer;
  checkSettings(settings);
  const limits = rateLimits({
    shared: deps.redis ? { redis: deps.redis, keyPrefix: config.redisKeyPrefix } : undefined,
    refuse: tooManyRequests,
    onRefused: deps.onRateLimited,
  });
  // Every counter in the store is kept under an HMAC of its key (see `storeCounter`): no address or email in clear, nor one to guess.
  const counterKey = keyedHash(settings.counterKeySecret);
  // Weighed in hashes: every hash at one cost holds the same memory.
  const passwordGate = concurrencyGate({
    capacity: settings.passwordHashes.running,
    maxWaitMs: settings.passwordHashes.maxWaitMs,
    msPerUnit: PASSWORD_HASH_MS,
    busy: passwordsBusy,
  });
  const publicUrl = new URL(config.publicUrl);
  return {
    contract: deps.contract,
    // A deleted application or account takes its OAuth grants with it: the token caches are told too.
    store: announcingGrantEnds(
      announcingKeyChanges(createKyselyDeveloperStore(deps.db, deps.sites), () => {
        deps.changes.publish(API_KEYS_CHANGED);
        deps.changes.publish(OAUTH_GRANTS_CHANGED);
      }),
      () => deps.changes.publish(OAUTH_GRANTS_CHANGED),
    ),
    consents: oauthConsents(server, deps.db, deps.sites),
    limits,
    throttle: createLoginThrottle(deps.db, limits, settings.loginAttempts, counterKey),
    rotations: createKeyRotationLimit(deps.db, limits, settings.keyRotationsPerDay, counterKey),
    mailLimit: createMailLimit(deps.db, limits, { name: 'mail', perHour: MAILS_PER_HOUR }, counterKey),
    resetLimit: createMailLimit(deps.db, limits, { name: 'resets', perHour: RESETS_PER_ADDRESS_PER_HOUR }, counterKey),
    mailer: createMailer({ smtpUrl: settings.smtpUrl, from: senderOf(config.publicUrl), logger: deps.logger }),
    logger: deps.logger,
    passwords: gatedPasswords(passwordGate, settings.passwordCost, settings.passwordCostFloor),
    publicUrl: config.publicUrl,
    publicOrigin: publicUrl.origin,
    production: config.production,
    sessionTtlSeconds: settings.sessionTtlSeconds,
    sessionIdleSeconds: settings.sessionIdleSeconds,
    maxApplications: settings.maxApplications,
    welcome: deps.welcome,
    farewell: deps.farewell,
    requests: { requestsPerHour: settings.requestsPerHour, requestsWindowSeconds: settings.requestsWindowSeconds },
    cookie: { secure: publicUrl.protocol === 'https:', maxAgeSeconds: settings.sessionTtlSeconds },
  };
}

/**
 * The store, whose writes that end a person's OAuth grants (a new password, a reset, a new address, an app's
 * authorization revoked) then `announce` it, so the token caches forget at once here and as soon as the bus
 * tells the other instances.
 */
function announcingGrantEnds<
  Store extends Pick<
    DeveloperDeps['store'],
    'changePassword' | 'resetPassword' | 'changeEmail' | 'revokeAuthorization'
  >,
>(store: Store, announce: () => void): Store {
  return {
    ...store,
    changePassword: (...args) => store.changePassword(...args).finally(announce),
    resetPassword: (...args) => store.resetPassword(...args).finally(announce),
    changeEmail: (...args) => store.changeEmail(...args).finally(announce),
    revokeAuthorization: async (...args) => {
      const revoked = await store.revokeAuthorization(...args);
      if (revoked) announce();
      return revoked;
    },
  };
}

/**
 * The developer dashboard API: accounts, sessions in a cookie, CSRF checks,
 * and an account's applications and keys: its handlers, policies and
 * security resolver, from the one deps object (tests build it with stubs).
 */
export function developerService(deps: DeveloperDeps): DeveloperDefinition {
  const handlers = { ...createOAuthHandlers(deps), ...createDeveloperHandlers(deps) };
  const requests = deps.limits.step({
    name: 'developer-requests',
    per: 'address',
    points: deps.requests.requestsPerHour,
    windowSeconds: deps.requests.requestsWindowSeconds,
  });
  const { reads, changes, startsSession, checksPassword } = admitSteps(requests, deps.throttle, deps.publicOrigin);
  /** Reads change nothing and are not checked; every call that changes something is (CSRF), and sign-up and log-in are counted. */
  const policies: DeveloperPolicies = {
    signUp: { admit: startsSession },
    logIn: { admit: startsSession },
    getSession: { admit: reads },
    logOut: { admit: changes },
    resendVerification: { admit: changes },
    // Links are opened without a session: same origin, and counted per client like sign-ups (no token guessing).
    verifyEmail: { admit: startsSession },
    requestEmailChange: { admit: checksPassword },
    changePassword: { admit: checksPassword },
    deleteAccount: { admit: checksPassword },
    confirmEmailChange: { admit: startsSession },
    requestPasswordReset: { admit: startsSession },
    resetPassword: { admit: startsSession },
    listSessions: { admit: reads },
    endSession: { admit: changes },
    listApplications: { admit: reads },
    createApplication: { admit: changes },
    rotateApplicationKey: { admit: changes },
    revokeApiKey: { admit: changes },
    deleteApplication: { admit: changes },
    getOpenApiDocument: { admit: reads },
    getOAuthClient: { admit: reads },
    setOAuthClient: { admit: changes },
    getConsentRequest: { admit: reads },
    answerConsentRequest: { admit: changes },
    listAuthorizations: { admit: reads },
    revokeAuthorization: { admit: changes },
  };
  const security: DeveloperSecurity = {
    /** Resolves the session cookie; an expired, ended or malformed one is no session. */
    async sessionCookie(token) {
      const session = await resolveSession(deps, token);
      return session ? { kind: 'session', session } : null;
    },
  };
  return {
    name: 'developer',
    prefix: DEVELOPER_PREFIX,
    contract: deps.contract,
    handlers,
    anonymous: { kind: 'anonymous' },
    // Where a session is optional (reading the session), a cookie of an unknown or ended session is still a 401.
    unknownCredential: 'refuse',
    security,
    unauthenticated,
    policies,
    errorBody: developerErrorBody,
    present: presentDeveloperAnswer,
  };
}
