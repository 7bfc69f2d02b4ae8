import type { Post } from '../../../../generated/publishing/types.gen.js';
import {
  cannotEdit,
  cannotMakeSticky,
  cannotPublish,
  cannotTrashByEdit,
  cannotWritePosts,
  invalidParent,
  invalidWriteInput,
  unknownPost,
  unknownPostType,
  invalidIfNotModifiedSince,
  oldRevision,
} from '../errors.js';
import { NEW_POST_DEFAULTS, type NewPost } from '../domain/postColumns.js';
import type { PostRecord, SiteRecord } from '../domain/records.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import { exposes, openSite, viewRefusal, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import { storedTime } from '../domain/dates.js';
import { NO_TEXT, storedText, UNTRUSTED } from '../domain/storedText.js';
import { siteHomeUrl } from '../domain/links.js';
import { slugFromTitle } from './postObject.js';
import { presentPost, type PresentDeps } from './presentPost.js';
import { attachPostMedia } from './postMedia.js';
import type { FlowDeps } from './deps.js';

/** What a write works with: what presenting a post takes, and the media library for the files it attaches. */
export type WriteDeps = PresentDeps & Pick<FlowDeps, 'media'>;
import { applyWriteFields, featuredImageOf, resolveAuthor, type TermNaming } from './writeFields.js';
import type { WriteInput } from './writeInput.js';
import {
  allowedText,
  askedDate,
  fieldsOf,
  givenSlug,
  scheduledStatus,
  SLUGGED_STATUSES,
  storedDate,
} from './writeColumns.js';
import { phpTruthy } from '../domain/phpTruthy.js';

export interface WriteRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  viewerId: number;
  context: PostContext;
  meta: string | undefined;
  /** The body as the endpoint layer cast it (`http/phpCast.ts`). */
  body: WriteInput;
  /** How term names are read: v1.1's names or digits as IDs (the default), or v1.2's names only. */
  termNaming?: TermNaming;
  /**
   * v1.2's `post_exists`: a new post identical to a published one (see
   * `identicalPublishedPost`) answers that one instead of a second copy, so
   * a client retrying a create that timed out gets the post it made.
   */
  answerExisting?: boolean;
}

/** The `ids='...'` of a gallery shortcode, which `post_exists` leaves out when it compares contents (the attachments differ between tries). */
const GALLERY_IDS = /(\[gallery[^\]]*)(\sids='[\d,]+')([^\]]*\])/g;
const withoutGalleryIds = (content: string): string => content.replace(GALLERY_IDS, '$1$3');

/**
 * The published post a new post duplicates, as v1.2's `post_exists` finds
 * it: same site and type, same date to the second (the date given, else
 * now), same title, same content once the IDs of gallery shortcodes are
 * left out. Only a post of the new post's author is found (the platform
 * finds anyone's and then writes the rest of the request to it): a retry
 * answers the caller's own post, and nobody's post is changed by another's
 * create. `store` is the transaction that inserts when nothing is found:
 * the author's creates on the site are held first (`holdCreatesBy`), so two
 * identical creates arriving together cannot both find nothing.
 */
async function identicalPublishedPost(store: PublishingStore, post: NewPost): Promise<PostRecord | undefined> {
  if (post.author_id === null || post.author_id === undefined) return undefined;
  // Identical creates arriving together take turns from here to their commit: one inserts, the others find its post.
  await store.holdCreatesBy(post.site_id, post.author_id);
  const at = Date.parse(post.date);
  const { posts } = await store.listPosts({
    siteId: post.site_id,
    types: [post.type],
    statuses: ['publish'],
    visibleTo: 'all',
    authorId: post.author_id,
    sticky: 'include',
    dateAfter: new Date(at).toISOString(),
    dateBefore: new Date(at + 1000).toISOString(),
    orderBy: 'ID',
    order: 'ASC',
    offset: 0,
    limit: 100,
  });
  const content = withoutGalleryIds(post.content);
  return posts
    .map(({ post: found }) => found)
    .find((found) => found.title === post.title && withoutGalleryIds(found.content) === content);
}

/** The answer with its `media_errors`, last, as the platform appends them. */
const withMediaErrors = (post: Post, errors: Post['media_errors']): Post =>
  errors ? { ...post, media_errors: errors } : post;

/**
 * The platform's rules on who sets what beyond the status: `sticky` needs
 * `publish_posts` or `edit_others_posts` (403), as the REST API's
 * `rest_cannot_assign_sticky`.
 */
function checkSticky(body: WriteInput, roleCapabilities: ReadonlySet<string>): void {
  if (phpTruthy(body.sticky) && !roleCapabilities.has('publish_posts') && !roleCapabilities.has('edit_others_posts'))
    throw cannotMakeSticky();
}

/**
 * A parent a save names must be a post of the site, of the same type, that
 * the caller may read (the read rules, `viewRefusal`), and not the post
 * itself; else 400, the same for each, so the answer tells nothing of a
 * post the caller may not read. An edit that names the parent the post
 * already has is not checked again.
 */
async function checkParent(
  store: PublishingStore,
  site: SiteRecord,
  viewer: Viewer,
  roleCapabilities: ReadonlySet<string>,
  parentId: number | null | undefined,
  post: { id?: number; type: string; parentId?: number | null },
): Promise<void> {
  if (parentId === null || parentId === undefined || parentId === post.parentId) return;
  const parent = parentId === post.id ? undefined : await store.findPost(site.id, parentId);
  if (!parent || parent.type !== post.type) throw invalidParent();
  if (viewRefusal(parent, viewer, roleCapabilities, postCapabilities(roleCapabilities, viewer.id, parent), 'display'))
    throw invalidParent();
}

/**
 * Writes a new post and answers it, as the platform's `/posts/new` does:
 * site, type (404 `unknown_post_type`), something to write (400), then the
 * right to publish (`publish` by a caller who may only write posts becomes
 * `pending`; 403 `User cannot publish posts` for one who may not write
 * posts) or to write posts (403 `User cannot edit posts`).
 */
export async function createPost(deps: WriteDeps, request: WriteRequest): Promise<Post> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const body = allowedText(request.body, roleCapabilities);
  const type = body.type ?? 'post';
  if (!exposes(site, type)) throw unknownPostType();
  if (body.title === undefined && body.content === undefined && body.excerpt === undefined) throw invalidWriteInput();
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
  checkSticky(body, roleCapabilities);
  const fields = fieldsOf(body, type);
  await checkParent(store, site, viewer, roleCapabilities, fields.parent_id, { type });
  // To the second, as every time the store keeps (see `storedTime`).
  const now = new Date(storedTime(new Date()));
  const date = askedDate(body, roleCapabilities) ?? now.toISOString();
  status = scheduledStatus(status, date, now);
  const title = body.title ?? NO_TEXT;
  const slug = givenSlug(body) ?? (SLUGGED_STATUSES.has(status) ? slugFromTitle(title) : '');
  const post: NewPost = {
    site_id: site.id,
    author_id: author ?? viewer.id,
    type,
    status,
    slug,
    title,
    content: body.content ?? NO_TEXT,
    excerpt: body.excerpt ?? NO_TEXT,
    password: '',
    parent_id: null,
    date,
    modified: now.toISOString(),
    ...NEW_POST_DEFAULTS,
    ...fields,
    featured_media_id: (await featuredImageOf(store, site, body, null)) ?? null,
  };
  const home = siteHomeUrl(site);
  // One transaction: the post with its terms and metadata, or nothing (a failed create leaves no post to duplicate on retry).
  const id = await store.inTransaction(async (writing) => {
    // v1.2: a retried create answers the post the first try made, as it stands (nothing of the request is written again).
    // Looked up in the transaction that would insert, so the lookup and the insert are one step (see docs/decisions/post-exists-in-the-write.md).
    const existing = request.answerExisting ? await identicalPublishedPost(writing, post) : undefined;
    if (existing) return existing.id;
    const postId = await writing.createPost(post, (newId) => `${home}/?p=${newId}`);
    await applyWriteFields(writing, site, { id: postId, type }, roleCapabilities, body, {
      created: true,
      naming: request.termNaming,
    });
    return postId;
  });
  const mediaErrors = await attachPostMedia(deps, site.id, viewer.id, roleCapabilities, id, body);
  const created = await store.findPost(site.id, id);
  if (!created) throw unknownPost();
  // v1.1: a new post's answer suggests its slug even once published (`get_permalink_suggestions`: iOS reads it);
  // v1.2 (names-only terms) suggests only when the post is not published, as its `write_post` does.
  const answer = await presentPost(deps, {
    site,
    post: created,
    viewer,
    roleCapabilities,
    context: request.context,
    meta: request.meta,
    suggestions: request.termNaming !== 'names',
  });
  return withMediaErrors(answer, mediaErrors);
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
export async function updatePost(deps: WriteDeps, request: WriteRequest & { postId: number }): Promise<Post> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const body = allowedText(request.body, roleCapabilities);
  const found = await store.findPost(site.id, request.postId);
  if (!found || !exposes(site, found.type)) throw unknownPost();
  const capabilities = postCapabilities(roleCapabilities, viewer.id, found);
  if (!capabilities.edit_post) throw cannotEdit();
  if (body.status === 'trash' && !capabilities.delete_post) throw cannotTrashByEdit();
  if (Object.keys(body).length === 0) throw invalidWriteInput();
  checkSticky(body, roleCapabilities);
  await checkParent(store, site, viewer, roleCapabilities, fieldsOf(body, found.type).parent_id, found);
  const author = await resolveAuthor(store, site, viewer.id, roleCapabilities, body.author);
  const featured = await featuredImageOf(store, site, body, found.featuredMediaId);
  const notModifiedSince =
    body.if_not_modified_since === undefined
      ? undefined
      : Date.parse(storedDate(body.if_not_modified_since, invalidIfNotModifiedSince));

  // To the second, as every time the store keeps (see `storedTime`).
  const now = new Date(storedTime(new Date()));
  // One transaction: the edit, its terms and metadata, and the move to the trash, or nothing (the post stays as it was).
  const postId = await store.inTransaction(async (writing) => {
    let current: PostRecord = found;
    if (notModifiedSince !== undefined) {
      // v1.2's `if_not_modified_since`: another device's save since the caller read the post is a conflict, not overwritten.
      await writing.holdPost(found.id);
      current = (await writing.findPost(site.id, found.id)) ?? found;
      if (Date.parse(current.modified) > notModifiedSince) throw oldRevision();
    }
    if (current.status === 'trash' && body.status !== undefined && body.status !== 'trash') {
      await writing.restorePost(found.id, now);
      current = (await writing.findPost(site.id, found.id)) ?? found;
    }

    const changes = fieldsOf(body, current.type);
    let status = body.status === 'future' ? 'publish' : body.status === 'trash' ? undefined : body.status;
    if (
      (status === 'publish' || status === 'private') &&
      status !== current.status &&
      !roleCapabilities.has('publish_posts')
    )
      status = 'pending';
    const nextStatus = status ?? current.status;
    let date = askedDate(body, roleCapabilities);
    const datePast = Date.parse(current.date) <= now.getTime();
    // A draft or pending post published without a date, when its date has passed, and a scheduled post published before its date, are dated now.
    const unpublished = current.status === 'draft' || current.status === 'pending';
    if (
      date === undefined &&
      nextStatus === 'publish' &&
      ((unpublished && datePast) || (current.status === 'future' && !datePast))
    ) {
      date = now.toISOString();
    }
    if (author !== undefined) changes.author_id = author;
    if (featured !== undefined) changes.featured_media_id = featured;
    if (date !== undefined) changes.date = date;
    if (nextStatus !== 'trash') {
      const scheduled = scheduledStatus(nextStatus, date ?? current.date, now);
      if (scheduled !== current.status) changes.status = scheduled;
      const slug = givenSlug(body);
      if (slug !== undefined) changes.slug = slug;
      else if (current.slug === '' && SLUGGED_STATUSES.has(scheduled))
        changes.slug = slugFromTitle(body.title ?? current.title);
    }
    if (current.htmlUnchecked) {
      // Stored before the filter by a user without `unfiltered_html`: what this save does not replace is filtered now.
      changes.title ??= storedText('title', current.title, UNTRUSTED);
      changes.content ??= storedText('content', current.content, UNTRUSTED);
      changes.excerpt ??= storedText('excerpt', current.excerpt, UNTRUSTED);
      changes.html_unchecked = 0;
    }
    changes.modified = now.toISOString();
    await writing.updatePost(current.id, changes, { authorId: viewer.id, at: now.toISOString() });
    await applyWriteFields(writing, site, current, roleCapabilities, body, { naming: request.termNaming });
    if (body.status === 'trash') await writing.trashPost(current.id, now);
    return current.id;
  });

  const mediaErrors = await attachPostMedia(deps, site.id, viewer.id, roleCapabilities, postId, body);
  const saved = await store.findPost(site.id, postId);
  if (!saved) throw unknownPost();
  const answer = await presentPost(deps, {
    site,
    post: saved,
    viewer,
    roleCapabilities,
    context: request.context,
    meta: request.meta,
  });
  return withMediaErrors(answer, mediaErrors);
}
