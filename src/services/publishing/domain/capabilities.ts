import type { PostRecord } from './records.js';

/** The caller's rights on one post, as the post object's `capabilities` shows them. */
export interface PostCapabilities {
  publish_post: boolean;
  delete_post: boolean;
  edit_post: boolean;
}

/** Statuses the platform treats as published when mapping rights: published or scheduled. */
const PUBLISHED_STATUSES: ReadonlySet<string> = new Set(['publish', 'future']);

type Action = 'edit' | 'delete';

/**
 * The primitive capabilities that editing or deleting one post needs (the
 * platform's `map_meta_cap`): on your own post, `{action}_posts`, or
 * `{action}_published_posts` once it is published or scheduled (for a trashed
 * post, the status it had before the trash decides); on someone else's post,
 * `{action}_others_posts`, plus `{action}_published_posts` or
 * `{action}_private_posts` for a published or private one.
 */
function requiredCapabilities(
  action: Action,
  userId: number,
  post: Pick<PostRecord, 'authorId' | 'status' | 'trash'>,
): string[] {
  if (post.authorId !== null && post.authorId === userId) {
    const status = post.status === 'trash' ? post.trash?.previousStatus : post.status;
    return [PUBLISHED_STATUSES.has(status ?? '') ? `${action}_published_posts` : `${action}_posts`];
  }
  const required = [`${action}_others_posts`];
  if (PUBLISHED_STATUSES.has(post.status)) required.push(`${action}_published_posts`);
  else if (post.status === 'private') required.push(`${action}_private_posts`);
  return required;
}

/**
 * The caller's rights on a post, from the primitive capabilities of their
 * role on the post's site. With the platform's roles: administrators and
 * editors may edit, delete and publish any post; authors their own;
 * contributors may edit and delete their own posts that are not published
 * (or scheduled) and may not publish; subscribers nothing.
 */
export function postCapabilities(
  roleCapabilities: ReadonlySet<string>,
  userId: number,
  post: Pick<PostRecord, 'authorId' | 'status' | 'trash'>,
): PostCapabilities {
  const holdsAll = (action: Action) =>
    requiredCapabilities(action, userId, post).every((cap) => roleCapabilities.has(cap));
  return {
    publish_post: roleCapabilities.has('publish_posts'),
    delete_post: holdsAll('delete'),
    edit_post: holdsAll('edit'),
  };
}

/**
 * Whether the caller may read a private post (the platform's `read_post` on
 * a private post): its author with `read`, anyone else with
 * `read_private_posts`.
 */
export function mayReadPrivatePost(
  roleCapabilities: ReadonlySet<string>,
  userId: number,
  post: Pick<PostRecord, 'authorId'>,
): boolean {
  const own = post.authorId !== null && post.authorId === userId;
  return roleCapabilities.has(own ? 'read' : 'read_private_posts');
}
