import { ApiError } from '../../platform/answers/errors.js';
import type { MediaUploadError, MediaUploadErrors, PublishingError } from '../../../generated/publishing/types.gen.js';

/**
 * The publishing error body: `{"error": "<code>", "message": "<human text>"}`.
 * The shared machinery's generic codes become the platform's own.
 */
export const publishingErrorBody = (error: ApiError): PublishingError | MediaUploadErrors =>
  error instanceof EveryFileRefused
    ? { errors: error.errors }
    : { error: error.code === 'invalid_request' ? 'invalid_input' : error.code, message: error.message };

/** 400 for an upload whose every file was refused: the platform answers `{"errors": [{file, error, message}]}`. */
export class EveryFileRefused extends ApiError {
  constructor(readonly errors: MediaUploadError[]) {
    super(400, 'upload_error', 'Every file was refused');
  }
}

/**
 * 401 for a missing (`authorization_required`) or unknown (`invalid_token`) token. `WWW-Authenticate` follows
 * RFC 6750 §3: no `error` parameter when no token was sent, `error="invalid_token"` for one that is unknown,
 * expired or revoked (a client learns from the header alone whether to refresh or to send the person to sign in).
 */
export const publishingUnauthenticated = (reason: 'missing' | 'invalid') =>
  reason === 'missing'
    ? new ApiError(401, 'authorization_required', 'An active access token must be used to access this endpoint.', {
        'WWW-Authenticate': 'Bearer',
      })
    : new ApiError(401, 'invalid_token', 'The OAuth2 token is invalid.', {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });

/** 404 `unknown_blog`: no site has that ID or domain. */
export const unknownBlog = () => new ApiError(404, 'unknown_blog', 'Unknown blog');

/** 404 `unknown_post`: no such post on the site, or a post type the site does not expose. */
export const unknownPost = () => new ApiError(404, 'unknown_post', 'Unknown post');

/** 403 `unauthorized`: the caller may not delete the post, so may not restore it. */
export const cannotRestore = () => new ApiError(403, 'unauthorized', 'User cannot restore trashed posts');

/** 403 `unauthorized`: `context=edit` asked for by a caller who may not edit the post. */
export const cannotEdit = () => new ApiError(403, 'unauthorized', 'User cannot edit post');

/** 404 `unknown_post_type`: trashing a post of a type the site does not expose. */
export const unknownPostType = () => new ApiError(404, 'unknown_post_type', 'Unknown post type');

/** 403 `unauthorized`: the caller may not delete the post, so may not trash it. */
export const cannotDelete = () => new ApiError(403, 'unauthorized', 'User cannot delete posts');

/** 403 `unauthorized`: the caller may not read the post (not published, and not theirs to see). */
export const cannotView = () => new ApiError(403, 'unauthorized', 'User cannot view post');

/** 403 `unauthorized`: a password-protected post, to a caller who may not edit it. */
export const cannotViewProtected = () => new ApiError(403, 'unauthorized', 'User cannot view password protected post');

/** 403 `unauthorized`: a private site, to a caller who is not one of its users. */
export const cannotAccessPrivateBlog = () => new ApiError(403, 'unauthorized', 'User cannot access this private blog.');

/** 403 `authorization_required`: whether "I" like a post, asked without a token (the platform's words, and 403, not 401). */
export const likeNeedsToken = () =>
  new ApiError(403, 'authorization_required', 'An active access token must be used to like a post.');

/** 429 `rate_limit_exceeded`: the client address has used up its reads for the window. */
export const readsExhausted = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many requests; try again later', headers);

/** 400 `invalid_input`: a write whose body gives nothing to write (the platform's words). */
export const invalidWriteInput = () => new ApiError(400, 'invalid_input', 'Invalid request input');

/** 403 `unauthorized`: publishing asked for by a caller who may neither publish nor write posts. */
export const cannotPublish = () => new ApiError(403, 'unauthorized', 'User cannot publish posts');

/** 403 `unauthorized`: a new post asked for by a caller who may not write posts. */
export const cannotWritePosts = () => new ApiError(403, 'unauthorized', 'User cannot edit posts');

/** 403 `unauthorized`: `status: trash` in an edit, by a caller who may not delete the post. */
export const cannotTrashByEdit = () => new ApiError(403, 'unauthorized', 'User cannot delete post');

/** 403 `unauthorized`: `sticky` asked for by a caller who may neither publish posts nor edit others' (REST API's `rest_cannot_assign_sticky`). */
export const cannotMakeSticky = () =>
  new ApiError(403, 'unauthorized', 'Sorry, you are not allowed to make posts sticky.');

/** 400 `invalid_input`: a `parent` that is no post of the same type the caller may read (missing, unreadable and wrong type alike). */
export const invalidParent = () =>
  new ApiError(400, 'invalid_input', 'Invalid body field parent: no such post of the same type that you may read');

/** 404 `unknown_taxonomy`: the site has no term of that slug (the platform's words). */
export const unknownTaxonomy = () => new ApiError(404, 'unknown_taxonomy', 'Unknown taxonomy');

/** 403 `unauthorized`: `context=edit`, or a new term, by a caller who may not edit the taxonomy's terms. */
export const cannotEditTaxonomy = () => new ApiError(403, 'unauthorized', 'User cannot edit taxonomy');

/** 400 `invalid_input`: a new term without a name (the platform's words). */
export const unknownData = () => new ApiError(400, 'invalid_input', 'Unknown data passed');

/** 403 `authorization_required`: post counts asked for without a token (the platform's words, and 403, not 401). */
export const countsNeedToken = () =>
  new ApiError(403, 'authorization_required', 'An active access token must be used to retrieve post counts.');

/** 404 `unknown_post_type` of the counts operation (its own message, as on the platform). */
export const unknownCountedType = () => new ApiError(404, 'unknown_post_type', 'Unknown post type requested.');

/** 400 `empty_post_ids`: a bulk call without IDs (the platform's words). */
export const emptyPostIds = () => new ApiError(400, 'empty_post_ids', 'The request must include post_ids');

/** 400 `invalid_author`: a write naming an author who is no user of the site (the platform's words). */
export const invalidAuthor = () => new ApiError(400, 'invalid_author', 'Invalid author provided');

/** 403 `unauthorized`: another author asked for by a caller who may not edit others' posts. */
export const cannotPublishOthers = () =>
  new ApiError(403, 'unauthorized', "User is not allowed to publish others' posts.");

/** 403 `unauthorized`: an author who may not write posts on the site. */
export const authorCannotPublish = () => new ApiError(403, 'unauthorized', 'Assigned author cannot publish post.');

/** 400 `invalid_input`: a date parameter of a list that is no time. */
export const invalidDateParameter = (name: string) =>
  new ApiError(400, 'invalid_input', `Invalid parameter ${name}: must be an ISO 8601 date and time`);

/** 404 `invalid_meta_key`: a list filtered by a protected meta key (the platform's words and status). */
export const invalidMetaKey = () => new ApiError(404, 'invalid_meta_key', 'Invalid meta key');

/** 400 `invalid_number`: a list's `number` above its most (the platform's words). */
export const numberTooLarge = () =>
  new ApiError(400, 'invalid_number', 'The NUMBER parameter must be less than or equal to 100.');

/** 400 `invalid_input`: a body `date` that is no time. */
export const invalidDateField = () =>
  new ApiError(400, 'invalid_input', 'Invalid body field date: must be an ISO 8601 date and time');

/** 400 `invalid_input`: an integer body field past what a stored column holds (32 bits). */
export const invalidIntegerField = (name: string) =>
  new ApiError(400, 'invalid_input', `Invalid body field ${name}: must be a 32-bit integer`);

/** 400 `duplicate`: a new term named as a term of the same parent. */
export const duplicateTerm = () => new ApiError(400, 'duplicate', 'A taxonomy with that name already exists');

/** 400 `missing_parent`: a new term under a parent the taxonomy does not have. */
export const missingParentTerm = () => new ApiError(400, 'missing_parent', 'Parent term does not exist.');

/** 404 `not_found`: the autosave of a post that has none. */
export const noAutosave = () => new ApiError(404, 'not_found', 'No autosaves exist for this post');

/** 400 `invalid_post`: a slug that is nothing once made a slug. */
export const invalidPostSlug = () => new ApiError(400, 'invalid_post', 'Invalid post');

/** Whether a bulk operation's failure is one of the service's answers (written into the result), not a fault. */
export const isServiceError = (error: unknown): error is ApiError => error instanceof ApiError;

/** 400 `empty_term_name`: a term edit that sets an empty name (the platform's `wp_update_term` error, which its endpoint answers as a 500). */
export const emptyTermName = () => new ApiError(400, 'empty_term_name', 'A name is required for this term.');

/** 403 `unauthorized`: the site's default category cannot be deleted. */
export const cannotDeleteDefaultCategory = () =>
  new ApiError(403, 'unauthorized', 'The default category cannot be deleted');

/** A media item the site does not have (404, as the platform's media endpoints answer it). */
export const unknownMedia = () => new ApiError(404, 'unknown_media', 'Unknown media');

/** Listing media needs the right to write posts (contributors and up). */
export const cannotViewMedia = () => new ApiError(403, 'unauthorized', 'User cannot view media');

/** Uploading needs `upload_files` (authors and up). */
export const cannotUploadMedia = () => new ApiError(403, 'unauthorized', 'User cannot upload media.');

/** Editing an item needs `upload_files`, and `edit_others_posts` for someone else's. */
export const cannotEditMedia = () => new ApiError(403, 'unauthorized', 'User cannot edit media');

/** Deleting an item needs `upload_files`, and `edit_others_posts` for someone else's. */
export const cannotDeleteMedia = () => new ApiError(403, 'unauthorized', 'User cannot delete media');

/** An upload with neither `media[]` nor `media_urls[]`. */
export const noMediaGiven = () => new ApiError(400, 'invalid_input', 'No media provided in input.');

/** A `parent_id` that names no post of the site. */
export const invalidMediaParent = () =>
  new ApiError(400, 'invalid_input', 'Invalid body field parent_id: no such post of this site');

/** 503: more images are being worked on than this instance takes at once; try again in a second. */
export const mediaBusy = () =>
  new ApiError(503, 'service_unavailable', 'Too many images are being processed; try again shortly', {
    'Retry-After': '1',
  });

/** A file an edit of a media item refuses, with the upload's code (`rest_upload_file_too_big`, …). */
export const refusedMediaFile = (code: string, message: string) => new ApiError(400, code, message);

/** 503: the media files' store does not answer (its cause kept for the log, never answered). */
export const mediaStorageUnavailable = (cause: unknown) =>
  Object.assign(
    new ApiError(503, 'service_unavailable', 'The media storage is temporarily unavailable; try again shortly', {
      'Retry-After': '5',
    }),
    { cause },
  );
/** 400 `invalid_taxonomy`: a taxonomy path naming one the site has not (the platform's words). */
export const invalidTaxonomy = () => new ApiError(400, 'invalid_taxonomy', 'The taxonomy does not exist');

/** 409 `duplicate`: a new term named as a term of the same parent, on the taxonomy terms endpoint (its status there). */
export const duplicateTermConflict = () => new ApiError(409, 'duplicate', 'A taxonomy with that name already exists');

/** 409 `old-revision`: a v1.2 edit whose `if_not_modified_since` is older than the post (the code WordPressKit's `patchPost` reads as a conflict). */
export const oldRevision = () =>
  new ApiError(409, 'old-revision', 'There is a revision of this post that is more recent.');

/** 400 `invalid_input`: a body `if_not_modified_since` that is no time. */
export const invalidIfNotModifiedSince = () =>
  new ApiError(400, 'invalid_input', 'Invalid body field if_not_modified_since: must be an ISO 8601 date and time');
