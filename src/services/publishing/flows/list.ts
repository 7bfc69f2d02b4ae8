import type { Post, PostList } from '../../../../generated/publishing/types.gen.js';
import { invalidDateParameter, invalidMetaKey, numberTooLarge, unknownPostType } from '../errors.js';
import type { ListVisibility, PostListQuery } from '../domain/publishingStore.js';
import { MAX_STORED_INTEGER as MAX_STORED_ID } from '../../../platform/store/integers.js';
import type { PostRecord, SiteRecord } from '../domain/records.js';
import { exposes, openSite, viewRefusal, type Viewer } from '../domain/access.js';
import { postCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import { apiDate } from '../domain/dates.js';
import { apiSiteUrl } from '../domain/links.js';
import { HIERARCHICAL_TAXONOMIES, slugFromTitle, TAXONOMIES_OF_TYPE } from './postObject.js';
import { postTypeObject } from './postTypes.js';
import { keptPresentation, presentPost, relationsRequestFor, type PresentDeps } from './presentPost.js';
import { publishDuePosts } from './schedule.js';
import { searchTerms } from '../domain/searchTerms.js';
import { served } from '../../../platform/ops/served.js';

/** The list's query parameters, as validated. */
export interface ListRequest {
  /** The `site` path parameter, URL-decoded. */
  site: string;
  viewer: Viewer;
  context: PostContext;
  meta: string | undefined;
  status?: string;
  type?: string;
  number?: number;
  offset?: number;
  page?: number;
  pageHandle?: string;
  order?: 'DESC' | 'ASC';
  orderBy?: PostListQuery['orderBy'];
  after?: string;
  before?: string;
  modifiedAfter?: string;
  modifiedBefore?: string;
  search?: string;
  /** Who asks (the client address's rate-limit key): searches take turns fairly between callers. */
  caller?: string;
  author?: number;
  sticky?: PostListQuery['sticky'];
  /** Tag slugs: one, a comma list (any of them) or a `+` / space list (all of them). */
  tag?: string;
  /** A category's slug (or name), with the categories below it; else slugs as `tag` reads them. */
  category?: string;
  /** Comma lists of term slugs by taxonomy (`term[category]=a,b`): any of each list, every taxonomy. */
  term?: Record<string, string>;
  exclude?: number[];
  /** A post left out with every post below it, when the list is of one hierarchical type. */
  excludeTree?: number;
  parentId?: number;
  metaKey?: string;
  metaValue?: string;
  /** `meta_fields`: comma list of `link.field` paths of `meta.data` kept on each post. */
  metaFields?: string;
  /** The keys of each post asked for (`fields`); undefined: every key. Only those are built (see `PresentRequest.fields`). */
  fields?: ReadonlySet<string>;
}

/** Most posts a page may hold (more is 400 `invalid_number`, as the platform answers it). */
const MAX_NUMBER = 100;

/** Posts a page holds when `number` is not given (or is 0 or less). */
const DEFAULT_NUMBER = 20;

/** Statuses a caller with a token may ask for by name; `any` is every one but `trash`. */
const LISTABLE_STATUSES = ['publish', 'private', 'draft', 'pending', 'future', 'trash'] as const;
const ANY_STATUS = LISTABLE_STATUSES.filter((status) => status !== 'trash');

/** Capabilities that let a viewer see (and edit) every post of a site: then a list needs no filter by owner. */
const SEES_EVERY_POST = ['edit_others_posts', 'edit_published_posts', 'edit_private_posts', 'read_private_posts'];

/** The value of a query time parameter as stored (ISO-8601 UTC); 400 naming it when it is no time. */
export function storedTime(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // No offset means UTC, as the platform reads `*_gmt` times.
  const withZone = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`;
  const time = new Date(withZone);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw invalidDateParameter(name);
  }
  return time.toISOString();
}

/**
 * The statuses asked for (`status`, a comma list): a caller with a token
 * gets those it names among the listable ones (`any`: all but `trash`;
 * none named: `publish`); a caller without one only `publish`, or nothing
 * when it named no status it may see (`publish`, `any`).
 */
function statusesFor(status: string | undefined, viewer: Viewer): string[] {
  const named = (status ?? 'publish').split(',').map((name) => name.trim());
  if (!viewer.loggedIn) return named.some((name) => name === 'publish' || name === 'any') ? ['publish'] : [];
  const statuses = new Set<string>();
  for (const name of named) {
    if (name === 'any') ANY_STATUS.forEach((one) => statuses.add(one));
    else if ((LISTABLE_STATUSES as readonly string[]).includes(name)) statuses.add(name);
  }
  return statuses.size ? [...statuses] : ['publish'];
}

/** What the viewer may see in a list, as a filter the store applies before the read rules are checked post by post. */
function visibilityFor(viewer: Viewer, roleCapabilities: ReadonlySet<string>): ListVisibility {
  if (!viewer.loggedIn) return 'published';
  return SEES_EVERY_POST.every((cap) => roleCapabilities.has(cap)) ? 'all' : { ownerId: viewer.id };
}

/**
 * A page handle (`value=<sort value>&id=<post ID>`) as the position it
 * names, in the sort's own terms; a handle without both, or with a value
 * of the wrong kind, names none and is ignored (as the platform ignores it).
 */
function positionOf(handle: string | undefined, orderBy: PostListQuery['orderBy']): PostListQuery['after'] {
  if (handle === undefined) return undefined;
  const parsed = new URLSearchParams(handle);
  const value = parsed.get('value');
  const id = Number(parsed.get('id'));
  // An ID no stored post can have names no position (and would overflow PostgreSQL's integer).
  if (value === null || !Number.isSafeInteger(id) || id < 0 || id > MAX_STORED_ID) return undefined;
  if (orderBy === 'ID' || orderBy === 'comment_count') {
    const number = Number(value === '' && orderBy === 'ID' ? id : value);
    return Number.isSafeInteger(number) && Math.abs(number) <= MAX_STORED_ID ? { value: number, id } : undefined;
  }
  if (orderBy === 'title') return { value, id };
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : { value: time.toISOString(), id };
}

/** The handle of the page after a post: its sort value (dates as the API writes them) and its ID, URL-encoded. */
function handleAfter(post: PostRecord, sortValue: string | number, orderBy: PostListQuery['orderBy']): string {
  const value = orderBy === 'date' || orderBy === 'modified' ? apiDate(String(sortValue)) : String(sortValue);
  return `value=${encodeURIComponent(value)}&id=${post.id}`;
}

/** Taxonomies a `term` filter may name: every one some post type has (all public); another is ignored, as the platform skips it. */
const KNOWN_TAXONOMIES: ReadonlySet<string> = new Set(Object.values(TAXONOMIES_OF_TYPE).flat());

/** Protected metadata keys (`_` first) a list may still filter by: the platform's public ones (`WPCOM_JSON_API_Metadata::is_public`). */
const isPublicMetaKey = (key: string) => key === '_thumbnail_id' || key.startsWith('_wpas_') || key.startsWith('geo_');

/** Slugs as the platform's query reads them: each made a slug (`sanitize_title`), empty ones dropped. */
const slugsOf = (names: readonly string[]) => names.map((name) => slugFromTitle(name)).filter((slug) => slug !== '');

/**
 * The term conditions of a list, as the platform's query builds them
 * (`WP_Query`'s `tag`, `category_name` / `cat` and `tax_query`): each set
 * is "in one of these terms", every set must hold. A set that names no
 * term of the site matches no post (`undefined`: the list is empty).
 */
async function termSetsFor(
  store: PresentDeps['store'],
  siteId: number,
  request: ListRequest,
): Promise<number[][] | undefined> {
  const wanted: { taxonomy: string; slugs: string[] }[] = [];
  if (request.tag) {
    // A comma list is any of the tags; a `+` (or space) list is all of them.
    if (request.tag.includes(','))
      wanted.push({ taxonomy: 'post_tag', slugs: slugsOf(request.tag.split(/[,\r\n\t ]+/)) });
    else
      for (const one of slugsOf(request.tag.split(/[+\r\n\t ]+/))) wanted.push({ taxonomy: 'post_tag', slugs: [one] });
  }
  if (request.category) {
    // The category whose slug it is; else the platform's `category_name`: the last path segment, slugs any (`,`) or all (`+`) of them.
    const [named] = await store.termIdsBySlug(siteId, 'category', slugsOf([request.category]), false);
    if (named !== undefined) wanted.push({ taxonomy: 'category', slugs: slugsOf([request.category]) });
    else {
      const last = request.category.split('/').filter(Boolean).at(-1) ?? '';
      if (last.includes('+'))
        for (const one of slugsOf(last.split(/\++/))) wanted.push({ taxonomy: 'category', slugs: [one] });
      else wanted.push({ taxonomy: 'category', slugs: slugsOf(last.split(/,+/)) });
    }
  }
  for (const [taxonomy, slugs] of Object.entries(request.term ?? {})) {
    if (KNOWN_TAXONOMIES.has(taxonomy)) wanted.push({ taxonomy, slugs: slugsOf(String(slugs).split(',')) });
  }
  const sets: number[][] = [];
  for (const { taxonomy, slugs } of wanted) {
    const ids = await store.termIdsBySlug(siteId, taxonomy, slugs, HIERARCHICAL_TAXONOMIES.has(taxonomy));
    if (!ids.length) return undefined;
    sets.push(ids);
  }
  return sets;
}

/**
 * The metadata condition of a list: posts with an entry of `meta_key`
 * (and, with `meta_value`, of that value: its JSON text, or the number it
 * spells). A protected key the platform does not make public is 404
 * `invalid_meta_key`, for every caller (the platform asks for a right no
 * list can hold).
 */
function metaConditionOf(request: ListRequest): Pick<PostListQuery, 'metaKey' | 'metaValues'> {
  const key = request.metaKey;
  if (!key) return {};
  if (key.startsWith('_') && !isPublicMetaKey(key)) throw invalidMetaKey();
  if (request.metaValue === undefined) return { metaKey: key };
  const value = request.metaValue;
  const spellings = [JSON.stringify(value)];
  if (/^-?\d+(?:\.\d+)?$/.test(value) && String(Number(value)) === value) spellings.push(value);
  return { metaKey: key, metaValues: spellings };
}

/**
 * `meta_fields` as the platform applies it to a list: on each post with
 * `meta.data`, only the named `link.field` paths are kept (a link none of
 * whose fields is named goes). Kept presentations are frozen: the post and its
 * `meta` are copied, never changed.
 */
function withMetaFields(posts: Post[], metaFields: string | undefined): Post[] {
  if (metaFields === undefined) return posts;
  const paths = new Set(metaFields.split(','));
  return posts.map((post) => {
    const data = post.meta?.data as Record<string, Record<string, unknown>> | undefined;
    if (!post.meta || !data || typeof data !== 'object') return post;
    const kept: Record<string, Record<string, unknown>> = {};
    for (const [link, answer] of Object.entries(data)) {
      for (const [field, value] of Object.entries(answer ?? {})) {
        if (paths.has(`${link}.${field}`)) (kept[link] ??= {})[field] = value;
      }
    }
    return { ...post, meta: { ...post.meta, data: kept as NonNullable<Post['meta']>['data'] } };
  });
}

/**
 * `exclude` with `exclude_tree`'s post and every post below it added, as
 * the platform adds them when the list names one hierarchical type
 * (`is_post_type_hierarchical`: `page`); for another type or `any` the
 * platform ignores `exclude_tree`, and so does this.
 */
async function withExcludedTree(
  store: PresentDeps['store'],
  siteId: number,
  type: string,
  request: ListRequest,
): Promise<number[] | undefined> {
  const root = request.excludeTree;
  if (root === undefined || type === 'any' || !postTypeObject(type).hierarchical) return request.exclude;
  const tree = root > 0 && root <= MAX_STORED_ID ? [root, ...(await store.postIdsBelow(siteId, type, root))] : [root];
  return [...(request.exclude ?? []), ...tree];
}

/** The post types listed: `any` is every type the site exposes; another type it does not expose is 404 `unknown_post_type`. */
function typesFor(site: SiteRecord, type: string): string[] {
  if (type === 'any') return ['post', 'page', ...site.extraPostTypes];
  if (!exposes(site, type)) throw unknownPostType();
  return [type];
}

/**
 * The site's posts matching the query, as the platform's v1.1 list
 * answers them: each post checked by the read rules (`viewRefusal`, the
 * single read's) and left out, and not counted, when the viewer may not
 * read it as asked; `meta.links.counts` for a single type; `meta.next_page`
 * on a first page when more posts match.
 */
export async function listPosts(deps: PresentDeps, request: ListRequest): Promise<PostList> {
  const { viewer, context } = request;
  // Before anything is read: the page's records, its presentations and the earliest scheduled date are kept under it.
  const mark = deps.store.changeMark();
  const { site, roleCapabilities } = await openSite(deps.store, request.site, viewer);
  if (request.number !== undefined && request.number > MAX_NUMBER) {
    throw numberTooLarge();
  }
  const type = request.type ?? 'post';
  const types = typesFor(site, type);
  const statuses = statusesFor(request.status, viewer);
  if (!statuses.length) return { found: 0, posts: [] };
  const metaCondition = metaConditionOf(request);
  await publishDuePosts(deps, site.id, types, mark);

  const number = request.number !== undefined && request.number >= 1 ? request.number : DEFAULT_NUMBER;
  const pageNumber = request.page === undefined ? undefined : Math.max(1, request.page);
  const offset = pageNumber === undefined ? Math.max(0, request.offset ?? 0) : (pageNumber - 1) * number;
  const orderBy = request.orderBy ?? 'date';
  const termSets = await termSetsFor(deps.store, site.id, request);
  const exclude = (await withExcludedTree(deps.store, site.id, type, request))?.filter(
    (id) => Number.isSafeInteger(id) && id > 0 && id <= MAX_STORED_ID,
  );
  const query: PostListQuery = {
    siteId: site.id,
    types,
    statuses,
    visibleTo: visibilityFor(viewer, roleCapabilities),
    authorId: request.author ? request.author : undefined,
    search: request.search ? searchTerms(request.search) : undefined,
    ...(request.search && request.caller !== undefined ? { caller: request.caller } : {}),
    sticky: request.sticky ?? 'include',
    dateAfter: storedTime('after', request.after),
    dateBefore: storedTime('before', request.before),
    modifiedAfter: storedTime('modified_after', request.modifiedAfter),
    modifiedBefore: storedTime('modified_before', request.modifiedBefore),
    orderBy,
    order: request.order ?? 'DESC',
    ...(termSets?.length ? { termSets } : {}),
    ...(exclude?.length ? { excludeIds: exclude } : {}),
    ...(request.parentId !== undefined ? { parentId: request.parentId } : {}),
    ...metaCondition,
    after: positionOf(request.pageHandle, orderBy),
    offset,
    limit: number,
    mark,
  };
  // A term filter naming no term of the site matches nothing (the platform's query is then `0 = 1`).
  const listing = termSets ? await deps.store.listPosts(query) : { found: 0, posts: [] };

  const readable = listing.posts.filter(
    ({ post }) =>
      !viewRefusal(post, viewer, roleCapabilities, postCapabilities(roleCapabilities, viewer.id, post), context),
  );
  const presenting = readable.map(({ post }) => ({
    site,
    post,
    viewer,
    roleCapabilities,
    context,
    meta: request.meta,
    mark,
    fields: request.fields,
  }));
  const kept = presenting.map((one) => keptPresentation(deps, one));
  // What surrounds the page's posts not kept presented, read for the page at once (a statement per kind of row, not per post).
  const unkept = presenting.filter((_, index) => !kept[index]);
  const relations = await deps.store.pageRelations(
    unkept.map(({ post }) => post),
    relationsRequestFor(viewer, context, request.meta, request.fields),
  );
  const posts: Post[] = [];
  let next = 0;
  for (const [index, one] of presenting.entries()) {
    const keptOne = kept[index];
    if (keptOne) {
      posts.push(keptOne);
      continue;
    }
    // Each post presented is its own slice of the event loop (a rendering is bounded, a page of them is not).
    if (next > 0) await served();
    posts.push(await presentPost(deps, { ...one, relations: relations[next++] }));
  }
  // The counts link names one type: a list of every type (`any`) has none, as on the platform.
  const meta: NonNullable<PostList['meta']> =
    type === 'any' ? {} : { links: { counts: `${apiSiteUrl(deps.publicUrl, site.id)}/post-counts/${type}` } };
  const last = listing.posts.at(-1);
  // Only a page with posts to show has a next one (the platform builds the handle from the last post it answers).
  if (offset === 0 && last && readable.length && listing.found > listing.posts.length)
    meta.next_page = handleAfter(last.post, last.sortValue, orderBy);
  const found = listing.found - (listing.posts.length - readable.length);
  const answered = withMetaFields(posts, request.metaFields);
  return Object.keys(meta).length ? { found, posts: answered, meta } : { found, posts: answered };
}
