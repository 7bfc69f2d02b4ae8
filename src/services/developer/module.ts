import { PREFIX } from '../../../generated/developer/contract.gen.js';
import { announcingKeyChanges, API_KEYS_CHANGED } from '../../accounts/apiKeyCache.js';
import type { PlatformConfig } from '../../platform/config.js';
import type { PlatformDeps, ServiceModule } from '../../platform/module.js';
import { projectFile } from '../../platform/projectRoot.js';
import { dashboardPage } from './http/dashboardPage.js';
import { developerMigrations } from './store/migrations.js';
import { developerSettingsFromEnv, type DeveloperConfig } from './settings.js';
import type { Contract } from '../../platform/http/contract.js';
import { servedDefinition } from '../../platform/http/service.js';
import { concurrencyGate } from '../../platform/ops/concurrencyGate.js';
import type { DeveloperDatabase } from './store/tables.js';
import { MAX_PASSWORD_COST, MIN_PASSWORD_COST } from './domain/password.js';
import { hashSessionToken, idleSince, isWellFormedSessionToken, csrfTokenFor } from './domain/sessionToken.js';
import { developerErrorBody, passwordsBusy, tooManyRequests, unauthenticated } from './errors.js';
import { rateLimits } from '../../platform/security/limits.js';
import { createDeveloperHandlers } from './handlers.js';
import { admitSteps } from './http/admitRequest.js';
import { presentDeveloperAnswer } from './http/presentAnswer.js';
import type { DeveloperDefinition, DeveloperPolicies, DeveloperPrincipal, DeveloperSecurity } from './operations.js';
import { createKeyRotationLimit, type KeyRotationLimit } from './rateLimit/keyRotations.js';
import { createLoginThrottle, type LoginThrottle } from './rateLimit/loginThrottle.js';
import { createMailLimit, type MailLimit } from './rateLimit/mailLimit.js';
import { createMailer, type Mailer } from '../../platform/mail/mailer.js';
import { keyedHash } from '../../platform/security/secrets.js';
import type { Logger } from 'pino';
import type { DeveloperStore } from './store/developerStore.js';
import { createKyselyDeveloperStore } from './store/kyselyDeveloperStore.js';
import { authorizationServer, type AuthorizationServer } from '../../accounts/oauth/authorizationServer.js';
import { OAUTH_GRANTS_CHANGED } from '../../accounts/oauth/grants.js';
import { accountsOf } from '../../accounts/tables.js';
import { createOAuthHandlers, type DeveloperOAuthHandlers } from './oauthHandlers.js';

/** Path prefix of the dashboard API (the contract's server URL ends in `/developer/v1`). */
export const DEVELOPER_PREFIX = PREFIX;

/** The developer dashboard: its page, and its API of accounts, sessions, applications and keys. */
export const developerModule: ServiceModule<DeveloperDatabase, DeveloperConfig> = {
  name: 'developer',
  contractFile: 'openapi/developer.yaml',
  // The OAuth 2 authorization server it serves before the pipeline (the library's routes), described apart.
  documents: ['oauth'],
  settings: developerSettingsFromEnv,
  migrations: developerMigrations,
  create: (deps) => {
    const server = authorizationServer({
      db: accountsOf(deps.db),
      publicUrl: deps.config.publicUrl,
      consentPage: '/developers',
      trustProxy: deps.config.trustProxy,
      limits: deps.config.developer.oauthLimits,
      logger: deps.logger,
      redis: deps.redis ? { client: deps.redis, keyPrefix: deps.config.redisKeyPrefix } : undefined,
    });
    return {
      definition: servedDefinition(createDeveloperService(deps, server)),
      // The OAuth 2 authorization server (`/oauth2/…`, oidc-provider): outside the contract pipeline, its own protocol.
      early: server.middleware,
      late: dashboardPage(projectFile('dist/developers'), deps.config.publicUrlFromEnv ? deps.config.publicUrl : undefined),
    };
  },
};

/** The developer dashboard API on the shared database, its login attempts counted in the same store. */
export function createDeveloperService(
  deps: PlatformDeps<DeveloperDatabase, PlatformConfig & DeveloperConfig>,
  server: AuthorizationServer,
): DeveloperDefinition {
  const limits = rateLimits({
    shared: deps.redis ? { redis: deps.redis, keyPrefix: deps.config.redisKeyPrefix } : undefined,
    refuse: tooManyRequests,
    onRefused: deps.onRateLimited,
  });
  // Every counter in the store is kept under an HMAC of its key (see `storeWindows`): no address or email in clear, nor one to guess.
  const counterKey = keyedHash(deps.config.counterKeySecret);
  return developerService({
    oauth: createOAuthHandlers({ db: accountsOf(deps.db), server, onGrantsRevoked: () => deps.changes.publish(OAUTH_GRANTS_CHANGED) }),
    contract: deps.contract,
    config: deps.config,
    // A deleted application or account takes its OAuth grants with it: the token caches are told too.
    store: announcingKeyChanges(createKyselyDeveloperStore(deps.db), () => {
      deps.changes.publish(API_KEYS_CHANGED);
      deps.changes.publish(OAUTH_GRANTS_CHANGED);
    }),
    limits,
    throttle: createLoginThrottle(deps.db, limits, deps.config.developer.loginAttempts, counterKey),
    rotations: createKeyRotationLimit(deps.db, limits, deps.config.developer.keyRotationsPerDay, counterKey),
    mailLimit: createMailLimit(deps.db, limits, { name: 'mail', perHour: MAILS_PER_HOUR }, counterKey),
    resetLimit: createMailLimit(deps.db, limits, { name: 'resets', perHour: RESETS_PER_ADDRESS_PER_HOUR }, counterKey),
    mailer: createMailer({ smtpUrl: deps.config.smtpUrl, from: senderOf(deps.config.publicUrl), logger: deps.logger }),
    logger: deps.logger,
  });
}

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

/**
 * The developer dashboard API: accounts, sessions in a cookie, CSRF checks,
 * and an account's applications and keys, from any store and throttle.
 */
export function developerService(deps: {
  contract: Contract;
  config: Pick<PlatformConfig, 'publicUrl' | 'production'> & DeveloperConfig;
  store: DeveloperStore;
  /** The service's limits (in this process, or shared through Redis); the throttle, rotations and mails count with them too. */
  limits: ReturnType<typeof rateLimits>;
  throttle: LoginThrottle;
  rotations: KeyRotationLimit;
  mailLimit: MailLimit;
  resetLimit: MailLimit;
  mailer: Mailer;
  logger: Logger;
  /** The OAuth operations (an application's client settings, consent, authorized apps). */
  oauth: DeveloperOAuthHandlers;
}): DeveloperDefinition {
  const { passwordCost, sessionTtlSeconds } = deps.config.developer;
  if (!(passwordCost >= MIN_PASSWORD_COST && passwordCost <= MAX_PASSWORD_COST)) {
    throw new Error(`DEVELOPER_PASSWORD_COST must be from ${MIN_PASSWORD_COST} to ${MAX_PASSWORD_COST}, got ${passwordCost}`);
  }
  const { passwordHashes } = deps.config.developer;
  if (passwordHashes.running < 1) throw new Error(`DEVELOPER_PASSWORD_HASHES must be at least 1, got ${passwordHashes.running}`);
  const publicUrl = new URL(deps.config.publicUrl);
  const handlers = { ...deps.oauth, ...createDeveloperHandlers({
    contract: deps.contract,
    store: deps.store,
    throttle: deps.throttle,
    rotations: deps.rotations,
    maxApplications: deps.config.developer.maxApplications,
    passwordCost,
    // Weighed in hashes: every hash at one cost holds the same memory.
    passwordGate: concurrencyGate({
      capacity: passwordHashes.running,
      maxWaitMs: passwordHashes.maxWaitMs,
      msPerUnit: PASSWORD_HASH_MS,
      busy: passwordsBusy,
    }),
    sessionTtlSeconds,
    sessionIdleSeconds: deps.config.developer.sessionIdleSeconds,
    secureCookie: publicUrl.protocol === 'https:',
    mailer: deps.mailer,
    mailLimit: deps.mailLimit,
    resetLimit: deps.resetLimit,
    publicUrl: deps.config.publicUrl,
    production: deps.config.production,
    logger: deps.logger,
  }) };
  const requests = deps.limits.step({ name: 'developer-requests', per: 'address', points: deps.config.developer.requestsPerHour, windowSeconds: deps.config.developer.requestsWindowSeconds });
  const { reads, changes, startsSession, checksPassword } = admitSteps(requests, deps.throttle, publicUrl.origin);
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
    setOAuthClient: { admit: changes },
    getConsentRequest: { admit: reads },
    answerConsentRequest: { admit: changes },
    listAuthorizations: { admit: reads },
    revokeAuthorization: { admit: changes },
  };
  const security: DeveloperSecurity = {
    /** Resolves the session cookie; an expired, ended or malformed one is no session. */
    async sessionCookie(token) {
      if (!isWellFormedSessionToken(token)) return null;
      const session = await deps.store.findSession(hashSessionToken(token), idleSince(deps.config.developer.sessionIdleSeconds));
      return session ? { kind: 'session', session: { ...session, csrfToken: csrfTokenFor(token) } } : null;
    },
  };
  return {
    name: 'developer',
    prefix: DEVELOPER_PREFIX,
    contract: deps.contract,
    handlers,
    anonymous: { kind: 'anonymous' },
    security,
    unauthenticated,
    policies,
    errorBody: developerErrorBody,
    present: presentDeveloperAnswer,
  };
}
