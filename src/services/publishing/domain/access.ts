import type { ApiError } from '../../../platform/answers/errors.js';
import { cannotAccessPrivateBlog, cannotEdit, cannotView, cannotViewProtected, unknownBlog } from '../errors.js';
import type { AncestorRecord, PostRecord, SiteRecord } from './records.js';
import type { PublishingStore } from './publishingStore.js';
import { mayReadPrivatePost, postCapabilities, type PostCapabilities } from './capabilities.js';
import type { LinkAncestors } from './links.js';
import type { PostContext } from './context.js';
import { parseSiteRef } from './siteRef.js';

/** The caller of a post operation: a user, or nobody (who holds no capability and no ID of a user). */
export interface Viewer {
  /** The user's ID; 0 for an anonymous caller. */
  id: number;
  loggedIn: boolean;
}

/** The ID an anonymous caller is known by: no user has it. */
export const ANONYMOUS_VIEWER: Viewer = { id: 0, loggedIn: false };

/** Post types every site exposes; others only when the site allows them (`rest_api_allowed_post_types`). */
const ALWAYS_EXPOSED_TYPES: ReadonlySet<string> = new Set(['post', 'page']);

/** Whether the site exposes posts of this type through the API. */
export const exposes = (site: SiteRecord, type: string): boolean =>
  ALWAYS_EXPOSED_TYPES.has(type) || site.extraPostTypes.includes(type);

/** Statuses whose posts only those who may edit them can read (the platform's `protected` statuses). */
const PROTECTED_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'future']);

/**
 * Opens the site named by the `site` path value for a viewer, as the
 * platform's `switch_to_blog_and_validate_user` does: 404 `unknown_blog`
 * when none matches; a private site only for a viewer with `read` there
 * (403 "User cannot access this private blog."). Returns the site and the
 * viewer's capabilities on it.
 */
export async function openSite(
  store: PublishingStore,
  site: string,
  viewer: Viewer,
): Promise<{ site: SiteRecord; roleCapabilities: ReadonlySet<string> }> {
  const found = await store.findSite(parseSiteRef(site));
  if (!found) throw unknownBlog();
  const roleCapabilities = viewer.loggedIn ? await store.capabilitiesOf(found.id, viewer.id) : new Set<string>();
  if (found.isPrivate && !roleCapabilities.has('read')) throw cannotAccessPrivateBlog();
  return { site: found, roleCapabilities };
}

/**
 * Why the viewer may not see the post as asked, if they may not (the
 * platform's `validate_access`). `context=edit` needs the right to edit it
 * ("User cannot edit post"). Otherwise a published post is for everyone;
 * the rest only for a logged-in viewer: scheduled, draft and pending posts
 * if they may edit it, private ones if they may read private posts (or wrote
 * it), trashed ones if they may edit it ("User cannot view post"); and a
 * password-protected post only if they may edit it ("User cannot view
 * password protected post").
 */
export function viewRefusal(
  post: Pick<PostRecord, 'status' | 'password' | 'authorId'>,
  viewer: Viewer,
  roleCapabilities: ReadonlySet<string>,
  capabilities: PostCapabilities,
  context: PostContext,
): ApiError | undefined {
  if (context === 'edit') return capabilities.edit_post ? undefined : cannotEdit();
  if (post.status !== 'publish') {
    const mayRead =
      viewer.loggedIn &&
      (PROTECTED_STATUSES.has(post.status) || post.status === 'trash'
        ? capabilities.edit_post
        : post.status === 'private'
          ? mayReadPrivatePost(roleCapabilities, viewer.id, post)
          : post.status === 'auto-draft');
    if (!mayRead) return cannotView();
  }
  if (post.password !== '' && !capabilities.edit_post) return cannotViewProtected();
  return undefined;
}

/**
 * The post's ancestors as the caller's links may show them (`LinkAncestors`):
 * all of them when the caller may read each (the read rules, `viewRefusal`),
 * else hidden, so that no link shows the slug of a parent the caller may not
 * read (the platform's `get_page_uri` shows every ancestor's slug).
 */
export function ancestorsFor(
  ancestors: readonly AncestorRecord[],
  viewer: Viewer,
  roleCapabilities: ReadonlySet<string>,
): LinkAncestors {
  const readable = (ancestor: AncestorRecord) =>
    !viewRefusal(
      ancestor,
      viewer,
      roleCapabilities,
      postCapabilities(roleCapabilities, viewer.id, { ...ancestor, trash: null }),
      'display',
    );
  return { readable: ancestors.every(readable) ? ancestors : null };
}
