import type { BulkError, BulkResults, Post } from '../../../../generated/publishing/types.gen.js';
import type { ApiError } from '../../../platform/answers/errors.js';
import { emptyPostIds, isServiceError, unknownPost } from '../errors.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import { openSite } from '../domain/access.js';
import type { PostContext } from '../domain/context.js';

export interface BulkRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  viewerId: number;
  context: PostContext;
  meta: string | undefined;
  /** The body's `post_ids`: an array, or a comma-separated list. */
  postIds: (number | string)[] | string;
}

/** One post's operation of a bulk call: the single operation's own domain function. */
export type SinglePostChange = (request: {
  site: string;
  postId: number;
  viewerId: number;
  context: PostContext;
  meta: string | undefined;
}) => Promise<Post>;

/** A refusal as the platform writes a `WP_Error` inside an answer: `{errors: {code: [message]}, error_data: {code: status}}`. */
const asBulkError = (error: ApiError): BulkError => ({
  errors: { [error.code]: [error.message] },
  error_data: { [error.code]: error.status },
});

/**
 * Runs one post operation on each of `post_ids` (a bulk delete or restore,
 * as the platform's bulk endpoints do): each post judged on its own, one
 * after another, its answer (the post, or its refusal as an error object)
 * under its ID as given. A value that is no post ID is `unknown_post`. The
 * call itself fails on the site (404 `unknown_blog`, 403 for a private site)
 * and on no IDs at all (400 `empty_post_ids`); a failure that is no refusal
 * (the store down) fails it too.
 */
export async function eachPost(
  store: PublishingStore,
  change: SinglePostChange,
  request: BulkRequest,
): Promise<BulkResults> {
  await openSite(store, request.site, { id: request.viewerId, loggedIn: true });
  const ids = (Array.isArray(request.postIds) ? request.postIds.map(String) : request.postIds.split(','))
    .map((id) => id.trim())
    .filter(Boolean);
  if (!ids.length) throw emptyPostIds();
  const results: BulkResults['results'] = {};
  for (const id of ids) {
    try {
      if (!/^[0-9]+$/.test(id)) throw unknownPost();
      results[id] = await change({
        site: request.site,
        postId: Number(id),
        viewerId: request.viewerId,
        context: request.context,
        meta: request.meta,
      });
    } catch (error) {
      if (!isServiceError(error) || error.status >= 500) throw error;
      results[id] = asBulkError(error);
    }
  }
  return { results };
}
