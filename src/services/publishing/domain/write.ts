import type { Post, PostInput, PostInputV12 } from '../../../../generated/publishing/types.gen.js';
import { ApiError } from '../../../platform/answers/errors.js';
import { cannotEdit, cannotPublish, cannotTrashByEdit, cannotWritePosts, invalidWriteInput, unknownPost, unknownPostType } from '../errors.js';
import { NEW_POST_DEFAULTS, type NewPost, type PostChanges } from './postColumns.js';
import type { PostRecord } from './records.js';
import { exposes, openSite, type Viewer } from './access.js';
import { postCapabilities } from './capabilities.js';
import type { PostContext } from './context.js';
import { siteHomeUrl } from './links.js';
import { slugFromTitle } from './postObject.js';
import { renderPost, type RenderDeps } from './renderPost.js';
import { applyWriteFields, resolveAuthor, type WriteVersion } from './writeFields.js';

export interface WriteRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  viewerId: number;
  context: PostContext;
  meta: string | undefined;
  body: PostInputV12;
  /** The REST version the write came through (`1.1` when not said): v1.2 reads terms its own way (`applyWriteFields`). */
  version?: WriteVersion;
}

/** Statuses whose posts have a slug from the start (drafts and pending posts get one when published). */
const SLUGGED_STATUSES: ReadonlySet<string> = new Set(['publish', 'private', 'future']);

/** Post types whose posts have a parent (the platform's hierarchical types). */
const HIERARCHICAL_TYPES: ReadonlySet<string> = new Set(['page']);

/** A body flag as the platform's `is_truthy` reads it. */
const truthy = (value: boolean | number | string | undefined): boolean =>
  value === true || value === 1 || (typeof value === 'string' && /^(1|t|true)$/i.test(value));

const flag = (value: boolean | number | string | undefined): number | undefined => (value === undefined ? undefined : truthy(value) ? 1 : 0);

/** A body `date` as stored (ISO-8601 UTC): no offset means UTC; 400 naming it when it is no time. */
function storedDate(value: string): string {
  const withZone = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`;
  const time = new Date(withZone);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw new ApiError(400, 'invalid_input', 'Invalid body field date: must be an ISO 8601 date and time');
  }
  return time.toISOString();
}

/** `open` / `closed` for comments and pings from `discussion` (`*_open` wins over `*_status`). */
function discussionOf(body: PostInput): Pick<PostChanges, 'comment_status' | 'ping_status'> {
  const discussion = body.discussion ?? {};
  const status = (open: boolean | number | string | undefined, given: 'open' | 'closed' | undefined) =>
    open !== undefined ? (truthy(open) ? 'open' : 'closed') : given;
  const changes: Pick<PostChanges, 'comment_status' | 'ping_status'> = {};
  const comments = status(discussion.comments_open, discussion.comment_status);
  const pings = status(discussion.pings_open, discussion.ping_status);
  if (comments) changes.comment_status = comments;
  if (pings) changes.ping_status = pings;
  return changes;
}

/** The columns a body sets besides status, date and slug (a field not given is left out). */
function fieldsOf(body: PostInput, type: string): PostChanges {
  const hierarchical = HIERARCHICAL_TYPES.has(type);
  const changes: PostChanges = {
    title: body.title,
    content: body.content,
    excerpt: body.excerpt,
    password: body.password,
    sticky: flag(body.sticky),
    likes_enabled: flag(body.likes_enabled),
    sharing_enabled: flag(body.sharing_enabled),
    menu_order: body.menu_order,
    page_template: body.page_template,
    // The platform drops `parent` for types without hierarchy.
    parent_id: hierarchical && body.parent !== undefined ? body.parent || null : undefined,
    ...discussionOf(body),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

/**
 * The status a save asks for, as the platform decides it: `future` means
 * `publish`; `publish` or `private` by a caller without `publish_posts`
 * becomes `pending` (submitted for review); a published post dated ahead is
 * scheduled (`future`), a scheduled one dated past is published.
 */
function scheduledStatus(status: string, date: string, now: Date): string {
  if (status === 'publish' && Date.parse(date) > now.getTime()) return 'future';
  if (status === 'future' && Date.parse(date) <= now.getTime()) return 'publish';
  return status;
}

/**
 * Writes a new post and answers it, as the platform's `/posts/new` does:
 * site, type (404 `unknown_post_type`), something to write (400), then the
 * right to publish (`publish` by a caller who may only write posts becomes
 * `pending`; 403 `User cannot publish posts` for one who may not write
 * posts) or to write posts (403 `User cannot edit posts`).
 */
export async function createPost(deps: RenderDeps, request: WriteRequest): Promise<Post> {
  const { store } = deps;
  const { body } = request;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const type = body.type ?? 'post';
  if (!exposes(site, type)) throw unknownPostType();
  if (body.title === undefined && body.content === undefined && body.excerpt === undefined) throw invalidWriteInput();
  if (body.status === 'trash') throw new ApiError(400, 'invalid_input', 'Invalid body field status: a new post cannot be trashed');
  const author = await resolveAuthor(store, site, viewer.id, roleCapabilities, body.author);

  let status: string = body.status === 'future' || body.status === undefined ? 'publish' : body.status;
  if (status === 'publish' || status === 'private') {
    if (!roleCapabilities.has('publish_posts')) {
      if (!roleCapabilities.has('edit_posts')) throw cannotPublish();
      status = 'pending';
    }
  } else if (!roleCapabilities.has('edit_posts')) {
    throw cannotWritePosts();
  }
  const now = new Date();
  const date = body.date === undefined ? now.toISOString() : storedDate(body.date);
  status = scheduledStatus(status, date, now);
  const title = body.title ?? '';
  const slug = body.slug !== undefined ? slugFromTitle(body.slug) : SLUGGED_STATUSES.has(status) ? slugFromTitle(title) : '';
  const post: NewPost = {
    site_id: site.id,
    author_id: author ?? viewer.id,
    type,
    status,
    slug,
    title,
    content: body.content ?? '',
    excerpt: body.excerpt ?? '',
    password: '',
    parent_id: null,
    date,
    modified: now.toISOString(),
    ...NEW_POST_DEFAULTS,
    ...fieldsOf(body, type),
  };
  const home = siteHomeUrl(site);
  // One transaction: the post with its terms and metadata, or nothing (a failed create leaves no post to duplicate on retry).
  const id = await store.inTransaction(async (writing) => {
    const postId = await writing.createPost(post, (newId) => `${home}/?p=${newId}`);
    await applyWriteFields(writing, site, { id: postId, type }, roleCapabilities, body, { created: true, version: request.version });
    return postId;
  });
  const created = await store.findPost(site.id, id);
  if (!created) throw unknownPost();
  return renderPost(deps, { site, post: created, viewer, roleCapabilities, context: request.context, meta: request.meta });
}

/**
 * Saves an edit of a post and answers it, as the platform's `POST
 * /posts/{ID}` does. Checks first: site, post (404 `unknown_post`, also a
 * type the site does not expose), the right to edit it (403 `User cannot
 * edit post`), to trash it when asked (403 `User cannot delete post`),
 * something to write (400). Then: a trashed post given another status leaves
 * the trash first (its remembered status and slug back); the fields are
 * saved with `modified` and a revision; `trash` moves the post to the trash
 * last, remembering the status it had (restore gives it back).
 */
export async function updatePost(deps: RenderDeps, request: WriteRequest & { postId: number }): Promise<Post> {
  const { store } = deps;
  const { body } = request;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const found = await store.findPost(site.id, request.postId);
  if (!found || !exposes(site, found.type)) throw unknownPost();
  const capabilities = postCapabilities(roleCapabilities, viewer.id, found);
  if (!capabilities.edit_post) throw cannotEdit();
  if (body.status === 'trash' && !capabilities.delete_post) throw cannotTrashByEdit();
  if (Object.keys(body).length === 0) throw invalidWriteInput();
  const author = await resolveAuthor(store, site, viewer.id, roleCapabilities, body.author);

  const now = new Date();
  // One transaction: the edit, its terms and metadata, and the move to the trash, or nothing (the post stays as it was).
  const postId = await store.inTransaction(async (writing) => {
    let current: PostRecord = found;
    if (found.status === 'trash' && body.status !== undefined && body.status !== 'trash') {
      await writing.restorePost(found.id, now);
      current = (await writing.findPost(site.id, found.id)) ?? found;
    }

    const changes = fieldsOf(body, current.type);
    let status = body.status === 'future' ? 'publish' : body.status === 'trash' ? undefined : body.status;
    if ((status === 'publish' || status === 'private') && status !== current.status && !roleCapabilities.has('publish_posts')) status = 'pending';
    const nextStatus = status ?? current.status;
    let date = body.date === undefined ? undefined : storedDate(body.date);
    const datePast = Date.parse(current.date) <= now.getTime();
    // A draft published without a date, when its date has passed, and a scheduled post published before its date, are dated now.
    if (date === undefined && nextStatus === 'publish' && ((current.status === 'draft' && datePast) || (current.status === 'future' && !datePast))) {
      date = now.toISOString();
    }
    if (author !== undefined) changes.author_id = author;
    if (date !== undefined) changes.date = date;
    if (nextStatus !== 'trash') {
      const scheduled = scheduledStatus(nextStatus, date ?? current.date, now);
      if (scheduled !== current.status) changes.status = scheduled;
      if (body.slug !== undefined) changes.slug = slugFromTitle(body.slug);
      else if (current.slug === '' && SLUGGED_STATUSES.has(scheduled)) changes.slug = slugFromTitle(body.title ?? current.title);
    }
    changes.modified = now.toISOString();
    await writing.updatePost(current.id, changes, { authorId: viewer.id, at: now.toISOString() });
    await applyWriteFields(writing, site, current, roleCapabilities, body, { version: request.version });
    if (body.status === 'trash') await writing.trashPost(current.id, now);
    return current.id;
  });

  const saved = await store.findPost(site.id, postId);
  if (!saved) throw unknownPost();
  return renderPost(deps, { site, post: saved, viewer, roleCapabilities, context: request.context, meta: request.meta });
}
