import type { DeveloperError } from '../../../generated/developer/types.gen.js';
import { ApiError, invalidRequest, messageAndCodeBody } from '../../platform/answers/errors.js';

/** The dashboard API's error body: `{"error": "<human message>", "code": "<machine code>"}`. */
export const developerErrorBody = messageAndCodeBody<DeveloperError>;

/** 401 for an operation that needs a session, when there is none (or it expired or ended). */
export const unauthenticated = (reason: 'missing' | 'invalid') =>
  new ApiError(
    401,
    'unauthenticated',
    reason === 'missing' ? 'Log in to use the developer dashboard' : 'Your session has ended; log in again',
  );

/** 401 for a log-in whose email address and password do not match: the same for an unknown address and a wrong password. */
export const invalidCredentials = () =>
  new ApiError(401, 'invalid_credentials', 'Email address or password is incorrect');

/** 403 for a wrong current password where a session asks for a change (address, password, deletion; not 401: the session itself is fine). */
export const wrongPassword = () => new ApiError(403, 'invalid_credentials', 'The password is incorrect');

/** 400 for a consent answer that names a site more than once (which access would it get?). */
export const siteNamedTwice = (siteId: number) =>
  new ApiError(400, 'invalid_request', `Site ${siteId} is named more than once in sites; name each site once`);

/** 400 for a new address that is the account's own already. */
export const sameEmail = () => new ApiError(400, 'invalid_request', 'This is already your address');

/** 409 for a new address that got an account of its own between the link being sent and opened. */
export const emailTaken = () =>
  new ApiError(409, 'email_taken', 'This address already has an account; log in with it instead');

/** 403 for a request that may have been forged by another site. */
export const csrfFailed = (message: string) => new ApiError(403, 'csrf_failed', message);

/** 404 for an application (or key) that is not the caller's: the same as one that does not exist. */
export const applicationNotFound = () => new ApiError(404, 'not_found', 'Application not found');
export const keyNotFound = () => new ApiError(404, 'not_found', 'Key not found');

/** 400 for an application's redirect URI or origin that may not be registered (`problem` says why). */
export const invalidClientSettings = (problem: string) => invalidRequest(`Invalid body: ${problem}`);

/** 404 for a pending authorization request that is unknown, expired, or another browser's. */
export const consentNotFound = () =>
  new ApiError(404, 'not_found', 'Authorization request not found (it expired, or another browser started it)');

/** 400 for an approval of an app's publishing scope that picks none of the person's sites: its token could use no site. */
export const noSitePicked = () =>
  invalidRequest(
    'Pick at least one site the app may use: it asks for access to your posts, and without a site it could use none',
  );

/** 404 for an app the person has not authorized. */
export const authorizationNotFound = () => new ApiError(404, 'not_found', 'Authorization not found');

/** 400 for a new password that is easy to guess. */
export const weakPassword = (reason: string) =>
  new ApiError(400, 'weak_password', `Choose a harder password: ${reason}`);

/** 409 for a second application of the same name in one account. */
export const applicationNameTaken = (name: string) =>
  new ApiError(409, 'application_name_taken', `You already have an application named "${name}"`);

/** 403 for a new application beyond the account's allowance. */
export const applicationLimitReached = (max: number) =>
  new ApiError(403, 'application_limit_reached', `An account may have at most ${max} applications; delete one first`);

/** 429 for a key rotation beyond the account's allowance for 24 hours. */
export const tooManyRotations = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many key rotations today; try again later', headers);

/** 429 for too many log-in or sign-up attempts; `Retry-After` says when the next is accepted. */
export const tooManyAttempts = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many attempts; try again later', headers);

/** 403 for a new application (and so a key) before the account's address is verified. */
export const emailNotVerified = () =>
  new ApiError(403, 'email_not_verified', 'Verify your email address first; follow the link we sent you');

/** 400 for an emailed link's token that is unknown, already used or expired (the same answer for all three). */
export const invalidToken = () =>
  new ApiError(400, 'invalid_token', 'This link is invalid, used or expired; ask for a new one');

/** 404 for a session that is not one of the account's live sessions. */
export const sessionNotFound = () => new ApiError(404, 'not_found', 'Session not found');

/** 429 for an email asked for beyond the account's hourly allowance. */
export const tooManyEmails = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many emails asked for; try again later', headers);

/** 429 for any other request of the dashboard beyond its limit (its operations' budgets per address). */
export const tooManyRequests = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many requests; try again later', headers);

/** 503: more passwords are being hashed or checked than this instance takes at once; try again in a second. */
export const passwordsBusy = () =>
  new ApiError(503, 'service_unavailable', 'Too many passwords are being checked; try again shortly', {
    'Retry-After': '1',
  });
