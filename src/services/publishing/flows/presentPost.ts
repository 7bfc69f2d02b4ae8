import type { Post } from '../../../../generated/publishing/types.gen.js';
import type { PostRecord, PostRelations, SiteRecord } from '../domain/records.js';
import type { PageRelationsRequest, PublishingStore } from '../domain/publishingStore.js';
import { ancestorsFor, viewRefusal, type Viewer } from '../domain/access.js';
import type { FlowDeps } from './deps.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import { asksForAutosave, loadMetaData, requestedMetaLinks } from './metaData.js';
import { autosaveObject, newerAutosave } from './autosave.js';
import { LISTED_ATTACHMENTS, postObject, slugFromTitle } from './postObject.js';
import { needsOf, relationPartsOf, type PostKeyNeed } from './postNeeds.js';
import type { PresentedKey } from './presentedPosts.js';

/** What presenting a post object needs beyond the post. */
export type PresentDeps = Pick<FlowDeps, 'store' | 'primary' | 'publicUrl' | 'shortlinkBase' | 'presentedPosts'>;

export interface PresentRequest {
  site: SiteRecord;
  post: PostRecord;
  viewer: Viewer;
  /** The viewer's capabilities on the site. */
  roleCapabilities: ReadonlySet<string>;
  context: PostContext;
  /** The `meta` query parameter. */
  meta: string | undefined;
  /** What surrounds the post, when already read (a list reads a page's at once, `store.pageRelations`); read here when not given. */
  relations?: PostRelations;
  /** The store's change mark, read before the post: with it, a presentation for a caller without a token is kept (`presentedPosts`). */
  mark?: string;
  /** `other_URLs` suggests the permalink and slug whatever the status (a write's answer for a new post); else only when not published. */
  suggestions?: boolean;
  /**
   * The keys asked for (`fields`); undefined: every key. With them only
   * those keys are built, from only what they need (`needsOf`): what the
   * whole object trimmed to them would be. Such a partial object is never
   * kept (a kept whole one is answered, and trimmed by the presenter).
   */
  fields?: ReadonlySet<string>;
}

/** What the presentation of the request is kept by: only for a caller without a token (whose object is the same for every such caller) asking for no `meta`, under a mark. */
function keptAs(deps: PresentDeps, request: PresentRequest): PresentedKey | undefined {
  const { mark, viewer, meta } = request;
  if (!deps.presentedPosts || mark === undefined || viewer.loggedIn || meta !== undefined) return undefined;
  return { mark, site: request.site, post: request.post, context: request.context };
}

/** The kept presentation of the request's post, when there is one (see `keptAs`). */
export function keptPresentation(deps: PresentDeps, request: PresentRequest): Post | undefined {
  const key = keptAs(deps, request);
  return key && deps.presentedPosts!.find(key);
}

/** Whether the post object needs every attachment of the post: its content is displayed and has a gallery. */
export const needsAllAttachments = (post: PostRecord, context: PostContext) =>
  context === 'display' && post.content.includes('[gallery');

/** Statuses the platform's sample permalink treats as if published: the slug comes from the title when there is none yet. */
const SAMPLED_AS_PUBLISHED: ReadonlySet<string> = new Set(['draft', 'pending', 'future']);

/**
 * The slug `other_URLs` suggests (`get_sample_permalink`): for a draft,
 * pending or scheduled post its own slug or, without one, its title's, made
 * unique as if it were published; for other statuses its own slug, made
 * unique (an auto-draft's as it is).
 */
async function suggestedSlug(store: PublishingStore, post: PostRecord): Promise<string> {
  const desired = SAMPLED_AS_PUBLISHED.has(post.status) ? post.slug || slugFromTitle(post.title) : post.slug;
  if (desired === '' || post.status === 'auto-draft') return desired;
  return store.uniqueSlugFor(post, desired);
}

/**
 * The post object for a viewer, as every post operation answers it: the
 * viewer's rights on the post, what surrounds it (author, terms,
 * attachments, counts, revisions with `context=edit`), the suggested slug of
 * a post that is not published, and the links named in `meta`. For a
 * caller without a token, a presentation kept under the request's mark is
 * answered instead (see `presentedPosts`), and a new one is kept.
 */
export async function presentPost(deps: PresentDeps, request: PresentRequest): Promise<Post> {
  const key = keptAs(deps, request);
  if (!key) return present(deps, request);
  const kept = deps.presentedPosts!.find(key);
  if (kept || request.fields) return kept ?? present(deps, request);
  return deps.presentedPosts!.keep(key, await present(deps, request));
}

/**
 * What `postRelations` (or `pageRelations`) reads for the keys asked for
 * (`fields`, undefined: every key): only the parts, attachments and
 * revisions they need; the ancestors too when `meta` loads links (their
 * answers are built on the post's permalink).
 */
export function relationsRequestFor(
  viewer: Viewer,
  context: PostContext,
  meta: string | undefined,
  fields: ReadonlySet<string> | undefined,
  needs: ReadonlySet<PostKeyNeed> = needsOf(fields),
): PageRelationsRequest {
  // Every key: every part (undefined); else the parts the keys need, and the ancestors when `meta` loads links.
  const parts = fields && relationPartsOf(needs);
  if (parts && needs.has('metaData') && requestedMetaLinks(meta).length > 0) parts.add('ancestors');
  return {
    viewerId: viewer.id,
    recentAttachments: LISTED_ATTACHMENTS,
    allAttachments: (post) => needs.has('allAttachments') && needsAllAttachments(post, context),
    revisions: context === 'edit' && needs.has('revisions'),
    parts,
  };
}

/** What surrounds one post, as the keys asked for need it. */
function relationsOfOne(
  store: PublishingStore,
  request: PresentRequest,
  needs: ReadonlySet<PostKeyNeed>,
): Promise<PostRelations> {
  const wanted = relationsRequestFor(request.viewer, request.context, request.meta, request.fields, needs);
  return store.postRelations(request.post, { ...wanted, allAttachments: wanted.allAttachments(request.post) });
}

async function present(deps: PresentDeps, request: PresentRequest): Promise<Post> {
  const { store } = deps;
  const { site, post, viewer, context } = request;
  const capabilities = postCapabilities(request.roleCapabilities, viewer.id, post);
  const needs = needsOf(request.fields);
  // Read here only when the list did not read them for the page.
  const relations = request.relations ?? (await relationsOfOne(store, request, needs));
  // The parent is shown only to a caller who may read it (the platform shows any parent's title).
  const parent = relations.ancestors[0];
  const parentCapabilities =
    parent && postCapabilities(request.roleCapabilities, viewer.id, { ...parent, trash: null });
  const parentShown =
    parent !== undefined && !viewRefusal(parent, viewer, request.roleCapabilities, parentCapabilities!, 'display');
  // A link shows the ancestors' slugs only to a caller who may read every one of them.
  const linkAncestors = ancestorsFor(relations.ancestors, viewer, request.roleCapabilities);
  const links = needs.has('metaData') ? requestedMetaLinks(request.meta) : [];
  // A newer autosave is looked for (and linked, and loaded by `meta=autosave`) on a post read alone in edit context:
  // a list does not look for one per post (docs/publishing.md).
  const autosave =
    context === 'edit' && needs.has('metaData') && request.relations === undefined
      ? await newerAutosave(store, post)
      : undefined;
  const autosaveData =
    autosave && asksForAutosave(request.meta)
      ? await autosaveObject(store, { site, post, viewer, roleCapabilities: request.roleCapabilities }, autosave)
      : undefined;
  const linked = links.length
    ? await loadMetaData(links, {
        store,
        publicUrl: deps.publicUrl,
        shortlinkBase: deps.shortlinkBase,
        site,
        post,
        ancestors: linkAncestors,
        viewerId: viewer.id,
      })
    : undefined;
  const metaData = autosaveData ? { ...linked, autosave: autosaveData } : linked;
  return postObject(
    {
      site,
      post,
      relations,
      capabilities,
      parentShown,
      linkAncestors,
      context,
      publicUrl: deps.publicUrl,
      shortlinkBase: deps.shortlinkBase,
      suggestedSlug:
        (post.status === 'publish' && !request.suggestions) || !needs.has('suggestedSlug')
          ? ''
          : await suggestedSlug(store, post),
      suggestions: request.suggestions === true,
      metaData,
      autosaveLinked: autosave !== undefined,
    },
    request.fields,
  );
}
