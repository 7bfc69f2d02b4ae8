import { ApiError, invalidRequest, messageAndCodeBody } from '../../platform/answers/errors.js';
import type { ProfilesError } from '../../../generated/profiles/types.gen.js';

/** The profiles error body: `{"error": "<human message>", "code": "<machine code>"}`. */
export const profilesErrorBody = messageAndCodeBody<ProfilesError>;

/** 404: "No profile exists for the identifier". */
export const profileNotFound = () => new ApiError(404, 'not_found', 'Profile not found');

/** 429: "The rate limit is exceeded"; carries the rate-limit headers and `Retry-After`. */
export const rateLimitExceeded = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Rate limit exceeded', headers);

/** 503: more avatar images are being drawn than this instance takes at once; try again in a second. */
export const avatarsBusy = () =>
  new ApiError(503, 'service_unavailable', 'Too many avatar images are being drawn; try again shortly', { 'Retry-After': '1' });

/** 401 `unauthorized`: a `/me` operation without a person's token (the real API's words). */
export const notAuthorized = () => new ApiError(401, 'unauthorized', 'You are not authorized to perform this action');

/** 403 `insufficient_scope`: a person's token without the `profile` scope. */
export const insufficientScope = () =>
  new ApiError(403, 'insufficient_scope', 'The provided token does not contain the required scope for this request.');

/** 404 `disabled`: the signed-in person has no profile (the real API's words). */
export const profileDisabled = () => new ApiError(404, 'disabled', 'Profile is disabled');

/** 400: a QR code `version` too small for the text it must hold. */
export const qrVersionTooSmall = (reason: string) => invalidRequest(`Invalid parameter version: ${reason}`);
