import type { Autosave, AutosaveInput, AutosaveSaved } from '../../../../generated/publishing/types.gen.js';
import { cannotEdit, invalidWriteInput, noAutosave, unknownPost } from '../errors.js';
import { ancestorsFor, exposes, openSite, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import { apiDate } from '../domain/dates.js';
import type { FlowDeps } from './deps.js';
import { permalink } from '../domain/links.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import type { AutosaveRecord, PostRecord, SiteRecord } from '../domain/records.js';
import { storedPostText, storedText } from '../domain/storedText.js';

/**
 * Autosaves, as the platform's `/posts/{ID}/autosave` endpoints keep them
 * (`WPCOM_JSON_API_Autosave_Post_v1_1_Endpoint`, `..._Get_Autosave_...`): a
 * draft saved by its own author is saved in place; any other post keeps one
 * autosave per user beside it, which the read answers (the newest of any user).
 */

/** Statuses whose posts their author's autosave overwrites (the platform's drafts and auto-drafts). */
const SAVED_IN_PLACE: ReadonlySet<string> = new Set(['draft', 'auto-draft']);

/** The post to autosave or read the autosave of: site, post (404 `unknown_post`, also a type not exposed), the right to edit it (403). */
export async function editablePost(
  store: PublishingStore,
  siteRef: string,
  viewer: Viewer,
  postId: number,
): Promise<{ site: SiteRecord; post: PostRecord; roleCapabilities: ReadonlySet<string> }> {
  const { site, roleCapabilities } = await openSite(store, siteRef, viewer);
  const post = await store.findPost(site.id, postId);
  if (!post || !exposes(site, post.type)) throw unknownPost();
  if (!postCapabilities(roleCapabilities, viewer.id, post).edit_post) throw cannotEdit();
  return { site, post, roleCapabilities };
}

/** Whose preview of which post. */
export interface PreviewOf {
  site: SiteRecord;
  post: PostRecord;
  viewer: Viewer;
  roleCapabilities: ReadonlySet<string>;
}

/**
 * The post's permalink with `preview=true`, and for an autosave kept beside
 * the post `preview_id` naming the post (both platform endpoints set it to
 * the post's ID, not the autosave's; they add a nonce too).
 */
async function previewUrl(
  store: PublishingStore,
  { site, post, viewer, roleCapabilities }: PreviewOf,
  beside: boolean,
): Promise<string> {
  // The ancestors' slugs only for a caller who may read each of them, as in the post's `URL`.
  const ancestors = ancestorsFor(await store.ancestorsOf(post), viewer, roleCapabilities);
  const url = new URL(permalink(site, post, ancestors));
  url.searchParams.set('preview', 'true');
  if (beside) url.searchParams.set('preview_id', String(post.id));
  return url.toString();
}

export interface AutosaveRequest {
  site: string;
  postId: number;
  viewerId: number;
  body: AutosaveInput;
}

/**
 * Autosaves a post: 400 `invalid_input` for a body with nothing to keep;
 * then the post and the right to edit it. A draft of the caller's own is
 * saved in place (title, content, excerpt as given, `modified` now, and a
 * revision, as an edit saves it; `ID` is the post's ID); for any other
 * post the caller's autosave of it takes what was given (what was not given
 * stays as the autosave, else the post, had it) and the post is left as it is.
 */
export async function autosavePost(deps: Pick<FlowDeps, 'store'>, request: AutosaveRequest): Promise<AutosaveSaved> {
  const { store } = deps;
  const { body } = request;
  if (body.title === undefined && body.content === undefined && body.excerpt === undefined) throw invalidWriteInput();
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, post, roleCapabilities } = await editablePost(store, request.site, viewer, request.postId);
  const now = new Date().toISOString();
  // As an edit saves them: filtered for the caller's role, as every text the store keeps (`storedText`).
  const text = storedPostText({ title: body.title, content: body.content, excerpt: body.excerpt }, roleCapabilities);
  if (post.authorId === viewer.id && SAVED_IN_PLACE.has(post.status)) {
    // A post stored before the filter is filtered whole when its author saves it, as an edit does.
    const changes = post.htmlUnchecked
      ? {
          title: text.title ?? storedText('title', post.title, roleCapabilities),
          content: text.content ?? storedText('content', post.content, roleCapabilities),
          excerpt: text.excerpt ?? storedText('excerpt', post.excerpt, roleCapabilities),
          html_unchecked: 0,
        }
      : text;
    await store.inTransaction((writing) =>
      writing.updatePost(post.id, { ...changes, modified: now }, { authorId: viewer.id, at: now }),
    );
    return {
      ID: post.id,
      post_ID: post.id,
      modified: apiDate(now),
      preview_URL: await previewUrl(store, { site, post, viewer, roleCapabilities }, false),
    };
  }
  const kept = await store.autosaveOf(post.id, viewer.id);
  const saved = await store.saveAutosave({
    postId: post.id,
    authorId: viewer.id,
    modified: now,
    title: text.title ?? storedText('title', kept?.title ?? post.title, roleCapabilities),
    content: text.content ?? storedText('content', kept?.content ?? post.content, roleCapabilities),
    excerpt: text.excerpt ?? storedText('excerpt', kept?.excerpt ?? post.excerpt, roleCapabilities),
  });
  return {
    ID: saved.id,
    post_ID: post.id,
    modified: apiDate(saved.modified),
    preview_URL: await previewUrl(store, { site, post, viewer, roleCapabilities }, true),
  };
}

/** The post's newest autosave (of any user), after the post and the right to edit it; 404 `not_found` when it has none. */
export async function readAutosave(
  deps: Pick<FlowDeps, 'store'>,
  request: { site: string; postId: number; viewerId: number },
): Promise<Autosave> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, post, roleCapabilities } = await editablePost(store, request.site, viewer, request.postId);
  const autosave = await store.latestAutosave(post.id);
  if (!autosave) throw noAutosave();
  return autosaveObject(store, { site, post, viewer, roleCapabilities }, autosave);
}

/**
 * The post's newest autosave (of any user) when it is newer than the post,
 * as the platform's `get_meta()` looks for one in `edit` context
 * (`wp_get_post_autosave` of any user, `post_modified` later than the
 * post's): what `meta.links.autosave` stands for.
 */
export async function newerAutosave(store: PublishingStore, post: PostRecord): Promise<AutosaveRecord | undefined> {
  const autosave = await store.latestAutosave(post.id);
  return autosave && Date.parse(autosave.modified) > Date.parse(post.modified) ? autosave : undefined;
}

/** An autosave as `GET …/posts/{ID}/autosave` answers it (and `meta=autosave` loads it), for a caller who may edit the post. */
export async function autosaveObject(
  store: PublishingStore,
  of: PreviewOf,
  autosave: AutosaveRecord,
): Promise<Autosave> {
  // An autosave stored before autosaves were filtered holds what its author sent: shown as the author's role has it filtered.
  const authorCapabilities = await store.capabilitiesOf(of.site.id, autosave.authorId);
  const shown = storedPostText(autosave, authorCapabilities);
  return {
    ID: autosave.id,
    author_ID: autosave.authorId,
    post_ID: of.post.id,
    title: shown.title,
    content: shown.content,
    excerpt: shown.excerpt,
    preview_URL: await previewUrl(store, of, true),
    modified: apiDate(autosave.modified),
  };
}
