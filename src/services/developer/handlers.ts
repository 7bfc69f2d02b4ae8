import type { Session } from '../../../generated/developer/types.gen.js';
import { openApiDocumentHandler } from '../../platform/docs/servedContract.js';
import type { DeveloperDeps } from './deps.js';
import { changePassword, deleteAccount, signUp } from './flows/accounts.js';
import {
  createApplication,
  deleteApplication,
  listApplications,
  revokeApiKey,
  rotateApplicationKey,
  type IssuedKey,
} from './flows/applications.js';
import {
  confirmEmailChange,
  requestEmailChange,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verifyEmail,
} from './flows/emailFlows.js';
import { endSession, listSessions, logIn, logOut, type ActiveSession, type StartedSession } from './flows/sessions.js';
import { applicationBody, issuedKeyBody } from './http/applicationBody.js';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './http/sessionCookie.js';
import type { OAuthOperation } from './oauthHandlers.js';
import type { DeveloperHandlers, DeveloperPrincipal } from './operations.js';

/** The session of an operation that requires one (the pipeline answered 401 before the handler otherwise). */
function sessionOf(principal: DeveloperPrincipal): ActiveSession {
  if (principal.kind !== 'session') throw new Error('operation requires a session');
  return principal.session;
}

const sessionBody = (session: StartedSession['session']): Session => ({
  email: session.email,
  email_verified: session.emailVerified,
  csrf_token: session.csrfToken,
  expires_at: session.expiresAt,
});

const issuedBody = (issued: IssuedKey) => ({
  application: applicationBody(issued.application),
  new_key: issuedKeyBody(issued.application, issued.keyId, issued.key),
});

/** Said after every message when no mail server is set: where the local demo's messages are. */
const NO_SMTP_NOTE =
  ' This server sends no email (SMTP_URL is not set): the message, with its link, is in the server log.';

/**
 * The developer dashboard handler map: one function per operationId of
 * `openapi/developer.yaml` but the OAuth ones (`oauthHandlers.ts`). Each
 * hands its request to a flow of `domain/` and the flow's outcome to its
 * answer (bodies, the session cookie).
 */
export function createDeveloperHandlers(deps: DeveloperDeps): Omit<DeveloperHandlers, OAuthOperation> {
  // Only on a local start: in production (MAIL_TO_LOG) no answer points anyone at the log's links.
  const mailNote = deps.mailer.logsOnly && !deps.production ? NO_SMTP_NOTE : '';
  const accepted = (message: string) => ({
    status: 202 as const,
    body: { status: 'accepted' as const, message: `${message}${mailNote}` },
  });
  const signUpAccepted = accepted(
    'If this address can have an account, it now has one with this password; log in to continue. We sent a link to verify the address.',
  );
  const ended = () => ({
    status: 204 as const,
    body: undefined,
    headers: { 'Set-Cookie': clearedSessionCookie(deps.cookie) },
  });

  return {
    async signUp({ body, ctx }) {
      await signUp(deps, { email: body.email, password: body.password, ip: ctx.ip });
      return signUpAccepted;
    },

    async logIn({ body, ctx }) {
      const started = await logIn(deps, {
        email: body.email,
        password: body.password,
        ip: ctx.ip,
        presented: sessionTokenOf(ctx),
      });
      return {
        status: 200,
        body: sessionBody(started.session),
        headers: { 'Set-Cookie': sessionCookie(started.token, deps.cookie) },
      };
    },

    async getSession({ principal }) {
      // No cookie at all: no session, answered without an error (a browser would log a 401 on every anonymous visit).
      if (principal.kind === 'anonymous') return { status: 204, body: undefined };
      return { status: 200, body: sessionBody(sessionOf(principal)) };
    },

    async logOut({ principal }) {
      await logOut(deps, sessionOf(principal));
      return ended();
    },

    async resendVerification({ principal }) {
      await resendVerification(deps, sessionOf(principal));
      return accepted('We sent a new verification link to your address.');
    },

    async verifyEmail({ body }) {
      return { status: 200, body: { email: await verifyEmail(deps, body.token), email_verified: true } };
    },

    async requestEmailChange({ body, principal, ctx }) {
      const newEmail = await requestEmailChange(deps, sessionOf(principal), {
        newEmail: body.new_email,
        password: body.password,
        ip: ctx.ip,
      });
      return accepted(`We sent a link to ${newEmail}; your address changes when you open it.`);
    },

    async confirmEmailChange({ body }) {
      return { status: 200, body: { email: await confirmEmailChange(deps, body.token), email_verified: true } };
    },

    async requestPasswordReset({ body, ctx }) {
      await requestPasswordReset(deps, { email: body.email, ip: ctx.ip });
      return accepted('If this address has an account, we sent it a link to set a new password.');
    },

    async resetPassword({ body, ctx }) {
      await resetPassword(deps, { token: body.token, password: body.password, ip: ctx.ip });
      return { status: 204, body: undefined };
    },

    async changePassword({ body, principal, ctx }) {
      await changePassword(deps, sessionOf(principal), {
        currentPassword: body.current_password,
        newPassword: body.new_password,
        ip: ctx.ip,
      });
      return { status: 204, body: undefined };
    },

    async deleteAccount({ body, principal, ctx }) {
      await deleteAccount(deps, sessionOf(principal), { password: body.password, ip: ctx.ip });
      return ended();
    },

    async listSessions({ principal }) {
      const sessions = await listSessions(deps, sessionOf(principal));
      return {
        status: 200,
        body: {
          sessions: sessions.map((session) => ({
            id: session.id,
            created_at: session.createdAt,
            expires_at: session.expiresAt,
            current: session.current,
          })),
        },
      };
    },

    async endSession({ path, principal }) {
      await endSession(deps, sessionOf(principal).accountId, path.sessionId);
      return { status: 204, body: undefined };
    },

    async listApplications({ principal }) {
      const applications = await listApplications(deps, sessionOf(principal).accountId);
      return { status: 200, body: { applications: applications.map(applicationBody) } };
    },

    async createApplication({ body, principal }) {
      const request = { name: body.name, description: body.description, websiteUrl: body.website_url };
      return { status: 201, body: issuedBody(await createApplication(deps, sessionOf(principal), request)) };
    },

    async rotateApplicationKey({ path, principal }) {
      return {
        status: 200,
        body: issuedBody(await rotateApplicationKey(deps, sessionOf(principal), path.applicationId)),
      };
    },

    async revokeApiKey({ path, principal }) {
      return {
        status: 200,
        body: applicationBody(await revokeApiKey(deps, sessionOf(principal).accountId, path.applicationId, path.keyId)),
      };
    },

    async deleteApplication({ path, principal }) {
      await deleteApplication(deps, sessionOf(principal).accountId, path.applicationId);
      return { status: 204, body: undefined };
    },

    getOpenApiDocument: openApiDocumentHandler(deps.contract),
  };
}
