import { ApiError } from '../../platform/answers/errors.js';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Session } from '../../../generated/developer/types.gen.js';
import type { Contract } from '../../platform/contract/types.js';
import type { ConcurrencyGate } from '../../platform/ops/concurrencyGate.js';
import { openApiDocumentHandler } from '../../platform/docs/servedContract.js';
import type { OAuthOperation } from './oauthHandlers.js';
import { issueApiKey } from '../../accounts/apiKey.js';
import { canonicalInbox, normalizeEmail } from '../../accounts/email.js';
import { rateLimitClient } from '../../platform/security/clientAddress.js';
import { hashPassword, verifyPassword } from './domain/password.js';
import { passwordWeakness } from './domain/passwordPolicy.js';
import { csrfTokenFor, hashSessionToken, idleSince, issueSessionToken, sessionIdOf } from './domain/sessionToken.js';
import {
  EMAIL_CHANGE_TTL_SECONDS,
  emailChangedNotice,
  emailChangeMessage,
  emailTakenMessage,
  hashLinkToken,
  issueLinkToken,
  passwordChangedNotice,
  passwordResetMessage,
  RESET_TTL_SECONDS,
  VERIFY_TTL_SECONDS,
  verificationMessage,
} from './domain/emailLinks.js';
import {
  applicationLimitReached,
  applicationNameTaken,
  applicationNotFound,
  emailNotVerified,
  emailTaken,
  invalidCredentials,
  invalidToken,
  keyNotFound,
  sameEmail,
  sessionNotFound,
  weakPassword,
  wrongPassword,
} from './errors.js';
import type { Logger } from 'pino';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { MailLimit } from './rateLimit/mailLimit.js';
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
  /** Every password hash and check runs through it (`DEVELOPER_PASSWORD_HASHES`): each holds 128 MiB at the default cost. */
  passwordGate: ConcurrencyGate;
  sessionTtlSeconds: number;
  /** A session not used for this long is idle: refused, and pruned at the next log-in. */
  sessionIdleSeconds: number;
  secureCookie: boolean;
  /** Email out (verification, password-reset and new-address links, and the notice of a changed address). */
  mailer: Mailer;
  /** Counts the emails asked for per account and per address (and reset links per address and client address together). */
  mailLimit: MailLimit;
  /** Counts the reset links mailed to one address, whoever asks: a bound per inbox wider than the one per asker. */
  resetLimit: MailLimit;
  /** Base of the links in emails (`PUBLIC_URL`). */
  publicUrl: string;
  /** `NODE_ENV=production`: no answer then says that a message is in the log. */
  production: boolean;
  logger: Logger;
}

/** The session of an operation that requires one (the pipeline answered 401 before the handler otherwise). */
function sessionOf(principal: DeveloperPrincipal): ActiveSession {
  if (principal.kind !== 'session') throw new Error('operation requires a session');
  return principal.session;
}

const sessionBody = (session: Pick<ActiveSession, 'email' | 'emailVerified' | 'csrfToken' | 'expiresAt'>): Session => ({
  email: session.email,
  email_verified: session.emailVerified,
  csrf_token: session.csrfToken,
  expires_at: session.expiresAt,
});

/** Said after every message when no mail server is set: where the local demo's messages are. */
const NO_SMTP_NOTE = ' This server sends no email (SMTP_URL is not set): the message, with its link, is in the server log.';

/** The developer dashboard handler map: one function per operationId of `openapi/developer.yaml`. */
export function createDeveloperHandlers(deps: DeveloperHandlerDeps): Omit<DeveloperHandlers, OAuthOperation> {
  const { store, throttle, passwordGate } = deps;
  const hash = (password: string) => passwordGate(() => hashPassword(password, deps.passwordCost));
  const verify = (password: string, stored: string) => passwordGate(() => verifyPassword(password, stored));
  /**
   * A hash the password gate turns away (503, too many at once) is nobody's attempt: the points it took
   * (the client address's, and the email address's from it when counted) go back, so a flood from one
   * address cannot use up a neighbour's attempts.
   */
  const unlessTurnedAway = <T>(ip: string, email: string | undefined, hashing: Promise<T>): Promise<T> =>
    hashing.catch(async (error: unknown) => {
      if (error instanceof ApiError && error.status === 503) await throttle.turnedAway(ip, email);
      throw error;
    });
  const cookiePolicy: SessionCookiePolicy = { secure: deps.secureCookie, maxAgeSeconds: deps.sessionTtlSeconds };
  // An unknown address is checked against this hash too, so it takes as long to refuse as a wrong password.
  // It is made at start-up, so even the first unknown address is answered no faster than a known one.
  const decoyHash = hash(randomBytes(16).toString('hex'));
  // Awaited (and any failure reported) by the first log-in; until then a failure must not go unhandled.
  decoyHash.catch(() => {});
  // Only on a local start: in production (MAIL_TO_LOG) no answer points anyone at the log's links.
  const mailNote = deps.mailer.logsOnly && !deps.production ? NO_SMTP_NOTE : '';
  const signUpAccepted = {
    status: 'accepted',
    message: `If this address can have an account, it now has one with this password; log in to continue. We sent a link to verify the address.${mailNote}`,
  } as const;

  /**
   * Sends a message without making the caller wait for the mail server: the
   * answer takes as long whether or not an email goes out (nothing to learn
   * from its timing), and a mail server down does not fail the request.
   */
  function sendInBackground(message: Parameters<Mailer['send']>[0], what: string) {
    deps.mailer.send(message).catch((error: unknown) => deps.logger.error({ err: error }, `could not send the ${what} email`));
  }

  async function issueVerification(accountId: string, email: string) {
    const { token, tokenHash } = issueLinkToken();
    const expiresAt = new Date(Date.now() + VERIFY_TTL_SECONDS * 1000).toISOString();
    await store.issueEmailToken({ tokenHash, accountId, purpose: 'verify', expiresAt });
    return verificationMessage(deps.publicUrl, email, token);
  }

  /**
   * Starts a session for an account: a fresh token (never the one the
   * browser may already hold, which is ended: no session fixation), kept
   * hashed, with its cookie.
   */
  async function startSession(ctx: Context, accountId: string, email: string, emailVerified: boolean) {
    const presented = sessionTokenOf(ctx);
    if (presented) await store.deleteSession(hashSessionToken(presented));
    const { token, tokenHash } = issueSessionToken();
    const expiresAt = new Date(Date.now() + deps.sessionTtlSeconds * 1000).toISOString();
    await store.createSession({ tokenHash, accountId, expiresAt });
    return {
      body: sessionBody({ email, emailVerified, csrfToken: csrfTokenFor(token), expiresAt }),
      headers: { 'Set-Cookie': sessionCookie(token, cookiePolicy) },
    };
  }

  /** The signed-in account's password, asked for again: counted like a log-in of its address from this client. */
  async function checkCurrentPassword(session: ActiveSession, password: string, ip: string) {
    await throttle.admitLogIn(session.email, ip);
    const credentials = await store.findCredentials(session.email);
    if (!credentials || !(await unlessTurnedAway(ip, session.email, verify(password, credentials.passwordHash)))) throw wrongPassword();
    await throttle.succeeded(ip, session.email);
  }

  return {
    /**
     * "Sign up": a new account with a password that is not easy to guess. The same answer, after the same
     * work (the password is hashed either way), whether or not the address already has an account, so it
     * reveals nothing; an existing account gets nothing new. The client logs in next.
     */
    async signUp({ body, ctx }) {
      const email = normalizeEmail(body.email);
      const weakness = await passwordWeakness(body.password, email);
      if (weakness) throw weakPassword(weakness);
      const created = await store.createAccount(email, await unlessTurnedAway(ctx.ip, undefined, hash(body.password)));
      // Sign-ups of one inbox's many spellings (`carol+1@`, `carol+2@`, …) mail it a few times an hour, not once each.
      if (created !== 'email-taken' && (await deps.mailLimit.allows(`to:${canonicalInbox(email)}`))) {
        sendInBackground(await issueVerification(created.accountId, email), 'verification');
      }
      return { status: 202, body: signUpAccepted };
    },

    /** "Log in": the same answer for an unknown address and a wrong password; attempts counted per address and client. */
    async logIn({ body, ctx }) {
      const email = normalizeEmail(body.email);
      await throttle.admitLogIn(email, ctx.ip);
      const credentials = await store.findCredentials(email);
      const matches = await unlessTurnedAway(ctx.ip, email, verify(body.password, credentials?.passwordHash ?? (await decoyHash)));
      if (!credentials || !matches) throw invalidCredentials();
      await throttle.succeeded(ctx.ip, email);
      // Housekeeping on a path that is rare and already slow (the password hash): nothing expired is kept.
      await Promise.all([store.deleteExpiredSessions(idleSince(deps.sessionIdleSeconds)), throttle.forgetEnded()]);
      const verified = await store.isEmailVerified(credentials.accountId);
      return { status: 200, ...(await startSession(ctx, credentials.accountId, email, verified)) };
    },

    async getSession({ principal }) {
      return { status: 200, body: sessionBody(sessionOf(principal)) };
    },

    /** "Log out": the session ends at once, whatever the browser does with the cookie. */
    async logOut({ principal }) {
      await store.deleteSession(sessionOf(principal).tokenHash);
      return { status: 204, body: undefined, headers: { 'Set-Cookie': clearedSessionCookie(cookiePolicy) } };
    },

    /** "Send the verification email again": a new link (earlier ones stop working), a few per hour. */
    async resendVerification({ principal }) {
      const session = sessionOf(principal);
      if (!(await store.isEmailVerified(session.accountId))) {
        await deps.mailLimit.take(`account:${session.accountId}`);
        await deps.mailer.send(await issueVerification(session.accountId, session.email));
      }
      return { status: 202, body: { status: 'accepted', message: `We sent a new verification link to your address.${mailNote}` } };
    },

    /** "Verify an email address": the link's token, used once. */
    async verifyEmail({ body }) {
      const owner = await store.consumeEmailToken(hashLinkToken(body.token), 'verify');
      if (!owner) throw invalidToken();
      await store.markEmailVerified(owner.accountId);
      return { status: 200, body: { email: owner.email, email_verified: true } };
    },

    /**
     * "Ask to change the account's email address": the password again (counted like a log-in), then a link to
     * the new address. The same answer whether or not that address has an account: its owner is told by
     * email instead, so the asker learns nothing sign-up would not tell. A few per hour per account and per
     * new address, so nobody can flood an inbox through it.
     */
    async requestEmailChange({ body, principal, ctx }) {
      const session = sessionOf(principal);
      const newEmail = normalizeEmail(body.new_email);
      await checkCurrentPassword(session, body.password, ctx.ip);
      if (newEmail === session.email) throw sameEmail();
      await deps.mailLimit.take(`account:${session.accountId}`);
      await deps.mailLimit.take(`to:${canonicalInbox(newEmail)}`);
      if (await store.isEmailTaken(newEmail)) {
        sendInBackground(emailTakenMessage(deps.publicUrl, newEmail), 'address taken');
      } else {
        const { token, tokenHash } = issueLinkToken();
        const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_SECONDS * 1000).toISOString();
        await store.issueEmailToken({ tokenHash, accountId: session.accountId, purpose: 'email', expiresAt, newEmail });
        sendInBackground(emailChangeMessage(deps.publicUrl, newEmail, session.email, token), 'new address');
      }
      return {
        status: 202,
        body: { status: 'accepted', message: `We sent a link to ${newEmail}; your address changes when you open it.${mailNote}` },
      };
    },

    /**
     * "Confirm a new email address": the link's token, used once. The account moves to the address the link
     * was sent to (verified by it), every session ends, and the old address is told.
     */
    async confirmEmailChange({ body }) {
      const owner = await store.consumeEmailToken(hashLinkToken(body.token), 'email');
      if (!owner?.newEmail) throw invalidToken();
      if ((await store.changeEmail(owner.accountId, owner.newEmail)) === 'email-taken') throw emailTaken();
      sendInBackground(emailChangedNotice(deps.publicUrl, owner.email, owner.newEmail), 'address changed');
      return { status: 200, body: { email: owner.newEmail, email_verified: true } };
    },

    /**
     * "Ask for a password reset link": the same answer, after the same work, for every address (no
     * enumeration); a link goes out only to an account that can log in. Counted per address and client
     * address together, and per address more loosely: a stranger's requests use up their own budget, not
     * the owner's, so nobody can block an owner's recovery from one address.
     */
    async requestPasswordReset({ body, ctx }) {
      const email = normalizeEmail(body.email);
      const credentials = await store.findCredentials(email);
      // Counted for unknown addresses too, so both take the same work; the rest happens after the answer.
      // The recipient's own count is taken only within the asker's share: a stranger refused there uses up nothing of the owner's.
      const allowed =
        (await deps.mailLimit.allows(`reset:${canonicalInbox(email)}\n${rateLimitClient(ctx.ip)}`)) &&
        (await deps.resetLimit.allows(`reset:${canonicalInbox(email)}`));
      if (credentials && allowed) {
        // Started once the answer is on its way: nothing the caller waits for depends on the address.
        setImmediate(() => {
          const { token, tokenHash } = issueLinkToken();
          const expiresAt = new Date(Date.now() + RESET_TTL_SECONDS * 1000).toISOString();
          store
            .issueEmailToken({ tokenHash, accountId: credentials.accountId, purpose: 'reset', expiresAt })
            .then(() => sendInBackground(passwordResetMessage(deps.publicUrl, email, token), 'password reset'))
            .catch((error: unknown) => deps.logger.error({ err: error }, 'could not issue a password reset link'));
        });
      }
      return {
        status: 202,
        body: { status: 'accepted', message: `If this address has an account, we sent it a link to set a new password.${mailNote}` },
      };
    },

    /** "Set a new password": the link's token, used once; the password checked as at sign-up; every session ends. */
    async resetPassword({ body, ctx }) {
      const tokenHash = hashLinkToken(body.token);
      // The token is checked before the password so a used link says so; it is spent only once the password passes.
      const owner = await store.consumeEmailToken(tokenHash, 'reset');
      if (!owner) throw invalidToken();
      const weakness = await passwordWeakness(body.password, owner.email);
      const giveBack = () => store.issueEmailToken({ tokenHash, accountId: owner.accountId, purpose: 'reset', expiresAt: owner.expiresAt });
      if (weakness) {
        // Given back (with what is left of its life) so the owner can choose a better password with the same link.
        await giveBack();
        throw weakPassword(weakness);
      }
      // A hash refused while too many run (503) changes nothing either: the same link works on a retry.
      const stored = await unlessTurnedAway(ctx.ip, undefined, hash(body.password)).catch(async (error: unknown) => {
        await giveBack();
        throw error;
      });
      await store.resetPassword(owner.accountId, stored);
      sendInBackground(passwordChangedNotice(deps.publicUrl, owner.email), 'password changed');
      return { status: 204, body: undefined };
    },

    /**
     * "Change the password" while signed in: the current password again (counted like a log-in), the new one
     * checked as at sign-up; every other session ends, and the address is told.
     */
    async changePassword({ body, principal, ctx }) {
      const session = sessionOf(principal);
      await checkCurrentPassword(session, body.current_password, ctx.ip);
      const weakness = await passwordWeakness(body.new_password, session.email);
      if (weakness) throw weakPassword(weakness);
      await store.changePassword(session.accountId, await unlessTurnedAway(ctx.ip, undefined, hash(body.new_password)), session.tokenHash);
      sendInBackground(passwordChangedNotice(deps.publicUrl, session.email), 'password changed');
      return { status: 204, body: undefined };
    },

    /**
     * "Delete my account": the password again (counted like a log-in), then the account and everything it owns
     * go in one statement; its keys stop working at once here and, through the change bus and the key caches'
     * bound, on every instance.
     */
    async deleteAccount({ body, principal, ctx }) {
      const session = sessionOf(principal);
      await checkCurrentPassword(session, body.password, ctx.ip);
      await store.deleteAccount(session.accountId);
      return { status: 204, body: undefined, headers: { 'Set-Cookie': clearedSessionCookie(cookiePolicy) } };
    },

    async listSessions({ principal }) {
      const current = sessionOf(principal);
      const sessions = await store.listSessions(current.accountId);
      return {
        status: 200,
        body: {
          sessions: sessions.map((session) => ({
            id: sessionIdOf(session.tokenHash),
            created_at: session.createdAt,
            expires_at: session.expiresAt,
            current: session.tokenHash === current.tokenHash,
          })),
        },
      };
    },

    /** "End a session": any of the account's own, found by its public id (never its token or hash). */
    async endSession({ path, principal }) {
      const { accountId } = sessionOf(principal);
      const session = (await store.listSessions(accountId)).find((candidate) => sessionIdOf(candidate.tokenHash) === path.sessionId);
      if (!session) throw sessionNotFound();
      await store.deleteSession(session.tokenHash);
      return { status: 204, body: undefined };
    },

    async listApplications({ principal }) {
      const applications = await store.listApplications(sessionOf(principal).accountId);
      return { status: 200, body: { applications: applications.map(applicationBody) } };
    },

    /** "Create an application": its first key is issued with it and shown in this answer only; at most `maxApplications` per account. */
    async createApplication({ body, principal }) {
      const { accountId, email } = sessionOf(principal);
      // Read from the store, not the session: a verification in another browser counts at once.
      if (!(await store.isEmailVerified(accountId))) throw emailNotVerified();
      // A new application's key counts as a rotation does, so deleting and recreating gives no more keys.
      await deps.rotations.admit(accountId, email);
      const name = body.name.trim();
      const key = issueApiKey();
      const created = await store.createApplication(
        accountId,
        { name, description: body.description.trim(), websiteUrl: body.website_url },
        { hash: key.hash, displayPrefix: key.displayPrefix },
        deps.maxApplications,
      );
      if (typeof created === 'string') await deps.rotations.giveBack(accountId, email);
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
      const { accountId, email } = sessionOf(principal);
      await deps.rotations.admit(accountId, email);
      const key = issueApiKey();
      const rotated = await store.rotateKey(accountId, path.applicationId, {
        hash: key.hash,
        displayPrefix: key.displayPrefix,
      });
      if (!rotated) {
        await deps.rotations.giveBack(accountId, email);
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
