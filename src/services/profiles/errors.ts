import { ApiError, invalidRequest, messageAndCodeBody } from '../../platform/answers/errors.js';
import type { ProfilesError } from '../../../generated/profiles/types.gen.js';

/** The profiles error body: `{"error": "<human message>", "code": "<machine code>"}`. */
export const profilesErrorBody = messageAndCodeBody<ProfilesError>;

/** 404: "No profile exists for the identifier". */
export const profileNotFound = () => new ApiError(404, 'not_found', 'Profile not found');

/** 404: no verified-account service has an icon of the name asked for. */
export const iconNotFound = () => new ApiError(404, 'not_found', 'Icon not found');

/** 400: a search names a service the list of verified account services has no id for. */
export const unknownVerifiedAccountService = () =>
  invalidRequest('Invalid parameter service: must be an id of GET /v3/verified-accounts/services');

/** 429: "The rate limit is exceeded"; carries the rate-limit headers and `Retry-After`. */
export const rateLimitExceeded = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Rate limit exceeded', headers);

/** 503: more avatar images are being drawn than this instance takes at once; try again in a second. */
export const avatarsBusy = () =>
  new ApiError(503, 'service_unavailable', 'Too many avatar images are being drawn; try again shortly', {
    'Retry-After': '1',
  });

/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750 §3): the realm, and the `error` parameter only when a
 * credential was sent and refused (`invalid_token`) or lacks the scope (`insufficient_scope`, naming it), so a
 * client can tell from the header alone whether to ask for a new key or token.
 */
const challenge = (error?: 'invalid_token' | 'insufficient_scope', scope?: string) =>
  ['Bearer realm="profiles"', error && `error="${error}"`, scope && `scope="${scope}"`].filter(Boolean).join(', ');

/** 401 `unauthorized`: an operation that requires a key or token, without one (`missing`) or with one that is malformed, unknown, expired or revoked. */
export const unauthorized = (reason: 'missing' | 'invalid') =>
  new ApiError(401, 'unauthorized', 'You are not authorized to perform this action', {
    'WWW-Authenticate': challenge(reason === 'invalid' ? 'invalid_token' : undefined),
  });

/** 401 `unauthorized` with `invalid_token`: a principal that is no person, or whose account is gone, holds a token that no longer names anyone. */
export const notAuthorized = () => unauthorized('invalid');

/** 403 `insufficient_scope`: an OAuth token not granted the scope the operation needs. */
export const insufficientScope = (scope: string) =>
  new ApiError(403, 'insufficient_scope', 'The provided token does not contain the required scope for this request.', {
    'WWW-Authenticate': challenge('insufficient_scope', scope),
  });

/** 404 `disabled`: the signed-in person has no profile (the real API's words). */
export const profileDisabled = () => new ApiError(404, 'disabled', 'Profile is disabled');

/** 400: a QR code `version` too small for the text it must hold. */
export const qrVersionTooSmall = (reason: string) => invalidRequest(`Invalid parameter version: ${reason}`);
