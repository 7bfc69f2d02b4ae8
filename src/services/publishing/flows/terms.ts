import type { Term, TermDeleted, TermList } from '../../../../generated/publishing/types.gen.js';
import type { ApiError } from '../../../platform/answers/errors.js';
import {
  cannotDeleteDefaultCategory,
  cannotEditTaxonomy,
  duplicateTerm,
  emptyTermName,
  invalidWriteInput,
  missingParentTerm,
  unknownData,
  unknownTaxonomy,
} from '../errors.js';
import { openSite, type Viewer } from '../domain/access.js';
import type { PostContext } from '../domain/context.js';
import type { FlowDeps } from './deps.js';
import { slugFromTitle, termObject } from './postObject.js';
import { DEFAULT_CATEGORY_SLUG } from './writeFields.js';
import { NO_TEXT, type StoredText, storedText } from '../domain/storedText.js';

/**
 * A site's categories and tags, as the platform's taxonomy endpoints serve
 * them (`WPCOM_JSON_API_Get_Taxonomies_Endpoint`, `..._Get_Taxonomy_...`,
 * `..._Update_Taxonomy_...`): listed, read by slug, added, edited, deleted.
 */

/** The two taxonomies these endpoints serve, by the path's collection. */
export type TermCollection = 'categories' | 'tags';

export const TAXONOMY_OF: Readonly<Record<TermCollection, string>> = { categories: 'category', tags: 'post_tag' };

/** The capability both taxonomies' `edit_terms` map to on the platform (for tags too). */
const EDIT_TERMS = 'manage_categories';

/** How many terms a list answers when `number` is missing or below 1. */
const DEFAULT_NUMBER = 100;

export interface TermListRequest {
  site: string;
  viewer: Viewer;
  collection: TermCollection;
  number?: number;
  offset?: number;
  page?: number;
  search?: string;
  order?: 'ASC' | 'DESC';
  orderBy?: 'name' | 'count';
}

/**
 * One page of the site's categories or tags, every one (used or not), as
 * the platform lists them (`get_categories` / `get_tags` with `get=all`):
 * `number` (100 when below 1) from `offset` (0 when below 0) or the 1-based
 * `page` (1 when below 1; it wins), by name or by published posts, ties by
 * ID; `found` counts every match. Rendered for display whatever `context`
 * says, as the platform renders its lists.
 */
export async function listTerms(
  deps: Pick<FlowDeps, 'store' | 'publicUrl'>,
  request: TermListRequest,
): Promise<TermList> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const limit = request.number === undefined || request.number < 1 ? DEFAULT_NUMBER : request.number;
  const offset =
    request.page !== undefined ? (Math.max(request.page, 1) - 1) * limit : Math.max(request.offset ?? 0, 0);
  const { found, terms } = await deps.store.listTerms({
    siteId: site.id,
    taxonomy: TAXONOMY_OF[request.collection],
    search: request.search,
    orderBy: request.orderBy ?? 'name',
    order: request.order ?? 'ASC',
    offset,
    limit,
  });
  const view = { publicUrl: deps.publicUrl, site };
  return { found, [request.collection]: terms.map((term) => termObject(term, view)) };
}

/**
 * The category or tag with that slug (404 `unknown_taxonomy`); with
 * `context=edit` only for a caller who may edit the site's terms (403 `User
 * cannot edit taxonomy`).
 */
export async function readTerm(
  deps: Pick<FlowDeps, 'store' | 'publicUrl'>,
  request: { site: string; viewer: Viewer; collection: TermCollection; slug: string; context: PostContext },
): Promise<Term> {
  const { site, roleCapabilities } = await openSite(deps.store, request.site, request.viewer);
  const term = await deps.store.findTermBySlug(site.id, TAXONOMY_OF[request.collection], request.slug);
  if (!term) throw unknownTaxonomy();
  if (request.context === 'edit' && !roleCapabilities.has(EDIT_TERMS)) throw cannotEditTaxonomy();
  return termObject(term, { publicUrl: deps.publicUrl, site });
}

export interface NewTermRequest {
  site: string;
  viewerId: number;
  collection: TermCollection;
  body: { name?: string; description?: string; parent?: number };
}

/**
 * Adds a category or tag, as the platform's `/{categories,tags}/new` does: a
 * name is needed (400 `Unknown data passed`); the caller must be allowed to
 * edit the site's terms (403 `User cannot edit taxonomy`); a term of that
 * name under the same parent exists (400 `duplicate`); a category's parent
 * must exist (400 `missing_parent`; tags have none). The slug is the name's,
 * made unique in the taxonomy.
 */
export async function createTerm(
  deps: Pick<FlowDeps, 'store' | 'publicUrl'>,
  request: NewTermRequest,
  duplicate: () => ApiError = duplicateTerm,
): Promise<Term> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  // No tags in a name, for any caller (`pre_term_name`); the description filtered as the caller's role has it filtered.
  const name = storedText('termName', request.body.name ?? '', roleCapabilities);
  if (name === '') throw unknownData();
  if (!roleCapabilities.has(EDIT_TERMS)) throw cannotEditTaxonomy();
  const taxonomy = TAXONOMY_OF[request.collection];
  const parentId = request.collection === 'categories' ? (request.body.parent ?? 0) : 0;
  // The platform answers a namesake before a missing parent; a term's parent is never missing, so a missing parent has none.
  if (parentId !== 0 && !(await store.hasTerm(site.id, taxonomy, parentId))) throw missingParentTerm();
  const slug = slugFromTitle(name);
  // Slugs here are `a-z0-9 _-` only: a name of symbols alone makes none (the platform would percent-encode it).
  if (slug === '') throw unknownData();
  const added = await store.insertTerm(site.id, taxonomy, {
    name,
    slug,
    description:
      request.body.description === undefined
        ? NO_TEXT
        : storedText('termDescription', request.body.description, roleCapabilities),
    parentId,
  });
  if (!added) throw duplicate();
  return termObject(added, { publicUrl: deps.publicUrl, site });
}

export interface TermChangeRequest {
  site: string;
  viewerId: number;
  collection: TermCollection;
  slug: string;
}

/**
 * The term an edit or a deletion names, for a caller who may edit the
 * site's terms, in the platform's order: the right first (403 `User cannot
 * edit taxonomy`; both taxonomies' `edit_terms` and `delete_terms` are
 * `manage_categories`), then the term (404 `unknown_taxonomy`).
 */
export async function termToChange(store: FlowDeps['store'], request: TermChangeRequest) {
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  if (!roleCapabilities.has(EDIT_TERMS)) throw cannotEditTaxonomy();
  const taxonomy = TAXONOMY_OF[request.collection];
  const term = await store.findTermBySlug(site.id, taxonomy, request.slug);
  if (!term) throw unknownTaxonomy();
  return { site, taxonomy, term, roleCapabilities };
}

/** PHP's `empty()` of a text: missing, `""` or `"0"`. */
const phpEmpty = (text: string | undefined): boolean => text === undefined || text === '' || text === '0';

export interface TermEditRequest extends TermChangeRequest {
  body: { name?: string; description?: string; parent?: number };
}

/**
 * Edits a category or tag, as the platform's `POST
 * /{categories,tags}/slug:{slug}` does (`update_taxonomy`, then
 * `wp_update_term`): a body naming none of `name`, `description`, `parent`
 * is 400 `Invalid request input`; each of them sent empty (or `0`) leaves
 * that field (`! empty()`); tags take no parent; the slug stays. A parent
 * that is the category itself or one below it makes it a top-level
 * category (`wp_check_term_hierarchy_for_loops`); a parent the site has not
 * is 400 `missing_parent`, and a name of spaces alone 400 `empty_term_name`
 * (`wp_update_term`'s errors, which the platform's endpoint does not
 * catch).
 */
export async function editTerm(deps: Pick<FlowDeps, 'store' | 'publicUrl'>, request: TermEditRequest): Promise<Term> {
  const { store } = deps;
  const { site, taxonomy, term, roleCapabilities } = await termToChange(store, request);
  const { name, description, parent } = request.body;
  if (name === undefined && description === undefined && parent === undefined) throw invalidWriteInput();
  const fields: { name?: StoredText; description?: StoredText; parentId?: number } = {};
  if (!phpEmpty(name)) {
    fields.name = storedText('termName', name!, roleCapabilities);
    if (fields.name === '') throw emptyTermName();
  }
  if (!phpEmpty(description)) fields.description = storedText('termDescription', description!, roleCapabilities);
  if (request.collection === 'categories' && parent) {
    if (!(await store.hasTerm(site.id, taxonomy, parent))) throw missingParentTerm();
    const loops = parent === term.id || (await store.termIdsBelow(site.id, taxonomy, term.id)).includes(parent);
    fields.parentId = loops ? 0 : parent;
  }
  await store.updateTerm(site.id, taxonomy, term.id, fields);
  const edited = await store.findTermBySlug(site.id, taxonomy, term.slug);
  // Deleted meanwhile by another request: as the read would answer.
  if (!edited) throw unknownTaxonomy();
  return termObject(edited, { publicUrl: deps.publicUrl, site });
}

/**
 * Deletes a category or tag, as the platform's `POST
 * /{categories,tags}/slug:{slug}/delete` does (`delete_taxonomy`, then
 * `wp_delete_term`), and answers `{slug, success: "true"}`: posts left
 * without a category get the default one, the categories below move up to
 * its parent. The default category itself is refused (403): the platform's
 * `wp_delete_term` keeps it but its endpoint answers success all the same;
 * here the answer says what happened.
 */
export async function deleteTerm(deps: Pick<FlowDeps, 'store'>, request: TermChangeRequest): Promise<TermDeleted> {
  const { store } = deps;
  const { site, taxonomy, term } = await termToChange(store, request);
  let fallbackId: number | undefined;
  if (taxonomy === 'category') {
    if (term.slug === DEFAULT_CATEGORY_SLUG) throw cannotDeleteDefaultCategory();
    fallbackId = (await store.findTermBySlug(site.id, taxonomy, DEFAULT_CATEGORY_SLUG))?.id;
  }
  await store.deleteTerm(site.id, taxonomy, term.id, fallbackId);
  return { slug: term.slug, success: 'true' };
}
