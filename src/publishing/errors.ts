import { ApiError } from '../http/errors.js';
import type { Error as PublishingError } from '../../generated/publishing/types.gen.js';

/**
 * The publishing error body: `{"error": "<code>", "message": "<human text>"}`.
 * The shared machinery's generic codes become the platform's own.
 */
export const publishingErrorBody = (error: ApiError): PublishingError => ({
  error: error.code === 'invalid_request' ? 'invalid_input' : error.code,
  message: error.message,
});

/** 401 for a missing (`authorization_required`) or unknown (`invalid_token`) token. */
export const publishingUnauthenticated = (reason: 'missing' | 'invalid') =>
  reason === 'missing'
    ? new ApiError(401, 'authorization_required', 'An active access token must be used to access this endpoint.', {
        'WWW-Authenticate': 'Bearer',
      })
    : new ApiError(401, 'invalid_token', 'The OAuth2 token is invalid.', { 'WWW-Authenticate': 'Bearer' });
