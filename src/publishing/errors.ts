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

/** 404 `unknown_blog`: no site has that ID or domain. */
export const unknownBlog = () => new ApiError(404, 'unknown_blog', 'Unknown blog');

/** 404 `unknown_post`: no such post on the site, or a post type the site does not expose. */
export const unknownPost = () => new ApiError(404, 'unknown_post', 'Unknown post');

/** 403 `unauthorized`: the caller may not delete the post, so may not restore it. */
export const cannotRestore = () => new ApiError(403, 'unauthorized', 'User cannot restore trashed posts');

/** 403 `unauthorized`: `context=edit` asked for by a caller who may not edit the post. */
export const cannotEdit = () => new ApiError(403, 'unauthorized', 'User cannot edit post');
