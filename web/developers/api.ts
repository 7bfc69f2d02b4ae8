import { createClient, createConfig } from '../../generated/developer/client/index.js';
import * as sdk from '../../generated/developer/sdk.gen.js';
import type {
  OAuthClient,
  Application,
  AuthorizationList,
  ConsentAnswer,
  ConsentRequest,
  DashboardSession,
  KeyIssued,
  NewApplication,
  Session,
} from '../../generated/developer/types.gen.js';

/** A failed call: the API's own status, code and human message, or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

interface SdkResult<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

async function unwrap<T>(call: Promise<SdkResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response?.ok) return data as T;
  const body = (typeof error === 'object' && error !== null ? error : {}) as { error?: unknown; code?: unknown };
  if (!response)
    throw new ApiFailure(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  throw new ApiFailure(
    response.status,
    typeof body.code === 'string' ? body.code : 'unexpected_answer',
    typeof body.error === 'string' ? body.error : `Something went wrong (HTTP ${response.status}). Try again.`,
  );
}

/**
 * The dashboard API as the page uses it, through the SDK generated from
 * `openapi/developer.yaml`. The browser carries the session cookie by
 * itself; the session's CSRF token is kept in memory (never in storage) and
 * sent on every call that changes something.
 */
export function dashboardApi(baseUrl: string) {
  const client = createClient(createConfig({ baseUrl, credentials: 'same-origin' }));
  let csrfToken = '';
  const csrf = () => ({ 'X-CSRF-Token': csrfToken });
  const remember = (session: Session) => {
    csrfToken = session.csrf_token;
    return session;
  };

  return {
    /** The current session, or null when nobody is logged in. */
    async currentSession(): Promise<Session | null> {
      try {
        const answer = await sdk.getSession({ client });
        // 204: no session cookie was sent (an anonymous visit, answered without an error).
        if (answer.response?.status === 204) return null;
        return remember((await unwrap(Promise.resolve(answer))) as Session);
      } catch (failure) {
        if (failure instanceof ApiFailure && failure.status === 401) return null;
        throw failure;
      }
    },
    logIn: async (email: string, password: string) =>
      remember(await unwrap(sdk.logIn({ client, body: { email, password } }))),
    /** Signs up (the answer says nothing about the address), then logs in with the same password; with the sign-up's message. */
    async signUp(email: string, password: string) {
      const { message } = await unwrap(sdk.signUp({ client, body: { email, password } }));
      return { session: remember(await unwrap(sdk.logIn({ client, body: { email, password } }))), message };
    },
    async logOut(): Promise<void> {
      await unwrap(sdk.logOut({ client, headers: csrf() }));
      csrfToken = '';
    },
    /** Sends the verification link again; the answer says where to find it. */
    resendVerification: async (): Promise<string> =>
      (await unwrap(sdk.resendVerification({ client, headers: csrf() }))).message,
    verifyEmail: (token: string) => unwrap(sdk.verifyEmail({ client, body: { token } })),
    requestEmailChange: async (newEmail: string, password: string): Promise<string> =>
      (await unwrap(sdk.requestEmailChange({ client, body: { new_email: newEmail, password }, headers: csrf() })))
        .message,
    confirmEmailChange: (token: string) => unwrap(sdk.confirmEmailChange({ client, body: { token } })),
    requestPasswordReset: async (email: string): Promise<string> =>
      (await unwrap(sdk.requestPasswordReset({ client, body: { email } }))).message,
    async resetPassword(token: string, password: string): Promise<void> {
      await unwrap(sdk.resetPassword({ client, body: { token, password } }));
    },
    async changePassword(currentPassword: string, newPassword: string): Promise<void> {
      await unwrap(
        sdk.changePassword({
          client,
          body: { current_password: currentPassword, new_password: newPassword },
          headers: csrf(),
        }),
      );
    },
    async deleteAccount(password: string): Promise<void> {
      await unwrap(sdk.deleteAccount({ client, body: { password }, headers: csrf() }));
      csrfToken = '';
    },
    listSessions: async (): Promise<DashboardSession[]> => (await unwrap(sdk.listSessions({ client }))).sessions,
    async endSession(sessionId: string): Promise<void> {
      await unwrap(sdk.endSession({ client, path: { sessionId }, headers: csrf() }));
    },
    listApplications: async (): Promise<Application[]> => (await unwrap(sdk.listApplications({ client }))).applications,
    createApplication: (application: NewApplication): Promise<KeyIssued> =>
      unwrap(sdk.createApplication({ client, body: application, headers: csrf() })),
    rotateKey: (applicationId: string): Promise<KeyIssued> =>
      unwrap(sdk.rotateApplicationKey({ client, path: { applicationId }, headers: csrf() })),
    revokeKey: (applicationId: string, keyId: string): Promise<Application> =>
      unwrap(sdk.revokeApiKey({ client, path: { applicationId, keyId }, headers: csrf() })),
    oauthClient: (applicationId: string): Promise<OAuthClient> =>
      unwrap(sdk.getOAuthClient({ client, path: { applicationId } })),
    setOAuthClient: (
      applicationId: string,
      settings: { redirect_uris: string[]; javascript_origins: string[] },
    ): Promise<OAuthClient> =>
      unwrap(sdk.setOAuthClient({ client, path: { applicationId }, body: settings, headers: csrf() })),
    async deleteApplication(applicationId: string): Promise<void> {
      await unwrap(sdk.deleteApplication({ client, path: { applicationId }, headers: csrf() }));
    },
    consentRequest: (consentId: string): Promise<ConsentRequest> =>
      unwrap(sdk.getConsentRequest({ client, path: { consentId } })),
    answerConsent: async (consentId: string, answer: ConsentAnswer): Promise<string> =>
      (await unwrap(sdk.answerConsentRequest({ client, path: { consentId }, body: answer, headers: csrf() })))
        .redirect_to,
    listAuthorizations: async (): Promise<AuthorizationList['authorizations']> =>
      (await unwrap(sdk.listAuthorizations({ client }))).authorizations,
    async revokeAuthorization(applicationId: string): Promise<void> {
      await unwrap(sdk.revokeAuthorization({ client, path: { applicationId }, headers: csrf() }));
    },
  };
}

export type DashboardApi = ReturnType<typeof dashboardApi>;
