import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Session } from '../../../generated/developer/types.gen.js';
import type { Contract } from '../../platform/http/contract.js';
import { openApiDocumentHandler } from '../../platform/http/handlers.js';
import { issueApiKey } from '../../accounts/apiKey.js';
import { normalizeEmail } from '../../accounts/email.js';
import { hashPassword, verifyPassword } from './domain/password.js';
import { passwordWeakness } from './domain/passwordPolicy.js';
import { csrfTokenFor, hashSessionToken, issueSessionToken } from './domain/sessionToken.js';
import {
  applicationLimitReached,
  applicationNameTaken,
  applicationNotFound,
  invalidCredentials,
  keyNotFound,
  weakPassword,
} from './errors.js';
import { applicationBody, issuedKeyBody } from './http/applicationBody.js';
import { clearedSessionCookie, sessionCookie, sessionTokenOf, type SessionCookiePolicy } from './http/sessionCookie.js';
import type { ActiveSession, DeveloperHandlers, DeveloperPrincipal } from './operations.js';
import type { KeyRotationLimit } from './rateLimit/keyRotations.js';
import type { LoginThrottle } from './rateLimit/loginThrottle.js';
import type { DeveloperStore } from './store/developerStore.js';

export interface DeveloperHandlerDeps {
  contract: Contract;
  store: DeveloperStore;
  throttle: LoginThrottle;
  /** Counts each account's key rotations (at most `DEVELOPER_KEY_ROTATIONS_PER_DAY`). */
  rotations: KeyRotationLimit;
  /** Most applications an account may have (`DEVELOPER_MAX_APPLICATIONS`). */
  maxApplications: number;
  /** scrypt cost (log2 N) of new password hashes. */
  passwordCost: number;
  sessionTtlSeconds: number;
  secureCookie: boolean;
}

/** The session of an operation that requires one (the pipeline answered 401 before the handler otherwise). */
function sessionOf(principal: DeveloperPrincipal): ActiveSession {
  if (principal.kind !== 'session') throw new Error('operation requires a session');
  return principal.session;
}

const sessionBody = (session: Pick<ActiveSession, 'email' | 'csrfToken' | 'expiresAt'>): Session => ({
  email: session.email,
  csrf_token: session.csrfToken,
  expires_at: session.expiresAt,
});

/** The answer to every sign-up that passes validation. */
const SIGN_UP_ACCEPTED = {
  status: 'accepted',
  message: 'If this address can have an account, it now has one with this password; log in to continue.',
} as const;

/** The developer dashboard handler map: one function per operationId of `openapi/developer.yaml`. */
export function createDeveloperHandlers(deps: DeveloperHandlerDeps): DeveloperHandlers {
  const { store, throttle } = deps;
  const cookiePolicy: SessionCookiePolicy = { secure: deps.secureCookie, maxAgeSeconds: deps.sessionTtlSeconds };
  // An unknown address is checked against this hash too, so it takes as long to refuse as a wrong password.
  // It is made at start-up, so even the first unknown address is answered no faster than a known one.
  const decoyHash = hashPassword(randomBytes(16).toString('hex'), deps.passwordCost);
  // Awaited (and any failure reported) by the first log-in; until then a failure must not go unhandled.
  decoyHash.catch(() => {});

  /**
   * Starts a session for an account: a fresh token (never the one the
   * browser may already hold, which is ended: no session fixation), kept
   * hashed, with its cookie.
   */
  async function startSession(ctx: Context, accountId: string, email: string) {
    const presented = sessionTokenOf(ctx);
    if (presented) await store.deleteSession(hashSessionToken(presented));
    const { token, tokenHash } = issueSessionToken();
    const expiresAt = new Date(Date.now() + deps.sessionTtlSeconds * 1000).toISOString();
    await store.createSession({ tokenHash, accountId, expiresAt });
    return {
      body: sessionBody({ email, csrfToken: csrfTokenFor(token), expiresAt }),
      headers: { 'Set-Cookie': sessionCookie(token, cookiePolicy) },
    };
  }

  return {
    /**
     * "Sign up": a new account with a password that is not easy to guess. The same answer, after the same
     * work (the password is hashed either way), whether or not the address already has an account, so it
     * reveals nothing; an existing account gets nothing new. The client logs in next.
     */
    async signUp({ body }) {
      const email = normalizeEmail(body.email);
      const weakness = await passwordWeakness(body.password, email);
      if (weakness) throw weakPassword(weakness);
      await store.createAccount(email, await hashPassword(body.password, deps.passwordCost));
      return { status: 202, body: SIGN_UP_ACCEPTED };
    },

    /** "Log in": the same answer for an unknown address and a wrong password; attempts counted per address and client. */
    async logIn({ body, ctx }) {
      const email = normalizeEmail(body.email);
      await throttle.admitLogIn(email, ctx.ip);
      const credentials = await store.findCredentials(email);
      const matches = await verifyPassword(body.password, credentials?.passwordHash ?? (await decoyHash));
      if (!credentials || !matches) throw invalidCredentials();
      await throttle.succeeded(ctx.ip, email);
      // Housekeeping on a path that is rare and already slow (the password hash): nothing expired is kept.
      await Promise.all([store.deleteExpiredSessions(), throttle.forgetEnded()]);
      return { status: 200, ...(await startSession(ctx, credentials.accountId, email)) };
    },

    async getSession({ principal }) {
      return { status: 200, body: sessionBody(sessionOf(principal)) };
    },

    /** "Log out": the session ends at once, whatever the browser does with the cookie. */
    async logOut({ principal }) {
      await store.deleteSession(sessionOf(principal).tokenHash);
      return { status: 204, body: undefined, headers: { 'Set-Cookie': clearedSessionCookie(cookiePolicy) } };
    },

    async listApplications({ principal }) {
      const applications = await store.listApplications(sessionOf(principal).accountId);
      return { status: 200, body: { applications: applications.map(applicationBody) } };
    },

    /** "Create an application": its first key is issued with it and shown in this answer only; at most `maxApplications` per account. */
    async createApplication({ body, principal }) {
      const name = body.name.trim();
      const key = issueApiKey();
      const created = await store.createApplication(
        sessionOf(principal).accountId,
        { name, description: body.description.trim(), websiteUrl: body.website_url },
        { hash: key.hash, displayPrefix: key.displayPrefix },
        deps.maxApplications,
      );
      if (created === 'name-taken') throw applicationNameTaken(name);
      if (created === 'limit-reached') throw applicationLimitReached(deps.maxApplications);
      return {
        status: 201,
        body: { application: applicationBody(created.application), new_key: issuedKeyBody(created.application, created.keyId, key.key) },
      };
    },

    /**
     * "Rotate an application's key": a new key, shown once; the old ones stop working at once. Counted
     * against the account's rotations for 24 hours (429 beyond them); a rotation of an application that is
     * not the account's is not counted.
     */
    async rotateApplicationKey({ path, principal }) {
      const { accountId } = sessionOf(principal);
      await deps.rotations.admit(accountId);
      const key = issueApiKey();
      const rotated = await store.rotateKey(accountId, path.applicationId, {
        hash: key.hash,
        displayPrefix: key.displayPrefix,
      });
      if (!rotated) {
        await deps.rotations.giveBack(accountId);
        throw applicationNotFound();
      }
      return {
        status: 200,
        body: { application: applicationBody(rotated.application), new_key: issuedKeyBody(rotated.application, rotated.keyId, key.key) },
      };
    },

    async revokeApiKey({ path, principal }) {
      const application = await store.revokeKey(sessionOf(principal).accountId, path.applicationId, path.keyId);
      if (!application) throw keyNotFound();
      return { status: 200, body: applicationBody(application) };
    },

    async deleteApplication({ path, principal }) {
      if (!(await store.deleteApplication(sessionOf(principal).accountId, path.applicationId))) throw applicationNotFound();
      return { status: 204, body: undefined };
    },

    getOpenApiDocument: openApiDocumentHandler(deps.contract),
  };
}
