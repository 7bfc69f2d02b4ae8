import type { Term, TermList } from '../../../../generated/publishing/types.gen.js';
import { cannotEditTaxonomy, duplicateTerm, missingParentTerm, unknownData, unknownTaxonomy } from '../errors.js';
import { openSite, type Viewer } from '../domain/access.js';
import type { PostContext } from '../domain/context.js';
import type { FlowDeps } from './deps.js';
import { slugFromTitle, termObject } from './postObject.js';

/**
 * A site's categories and tags, as the platform's taxonomy endpoints serve
 * them (`WPCOM_JSON_API_Get_Taxonomies_Endpoint`, `..._Get_Taxonomy_...`,
 * `..._Update_Taxonomy_...`): listed, read by slug, added.
 */

/** The two taxonomies these endpoints serve, by the path's collection. */
export type TermCollection = 'categories' | 'tags';

const TAXONOMY_OF: Readonly<Record<TermCollection, string>> = { categories: 'category', tags: 'post_tag' };

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
export async function listTerms(deps: Pick<FlowDeps, 'store' | 'publicUrl'>, request: TermListRequest): Promise<TermList> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const limit = request.number === undefined || request.number < 1 ? DEFAULT_NUMBER : request.number;
  const offset = request.page !== undefined ? (Math.max(request.page, 1) - 1) * limit : Math.max(request.offset ?? 0, 0);
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
export async function createTerm(deps: Pick<FlowDeps, 'store' | 'publicUrl'>, request: NewTermRequest): Promise<Term> {
  const { store } = deps;
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { site, roleCapabilities } = await openSite(store, request.site, viewer);
  const name = request.body.name?.trim() ?? '';
  if (name === '') throw unknownData();
  if (!roleCapabilities.has(EDIT_TERMS)) throw cannotEditTaxonomy();
  const taxonomy = TAXONOMY_OF[request.collection];
  const parentId = request.collection === 'categories' ? (request.body.parent ?? 0) : 0;
  const namesakes = await store.findTermsByName(site.id, taxonomy, name);
  if (namesakes.some((term) => term.parentId === parentId)) throw duplicateTerm();
  if (parentId !== 0 && !(await store.hasTerm(site.id, taxonomy, parentId))) throw missingParentTerm();
  const slug = slugFromTitle(name);
  // Slugs here are `a-z0-9 _-` only: a name of symbols alone makes none (the platform would percent-encode it).
  if (slug === '') throw unknownData();
  const added = await store.insertTerm(site.id, taxonomy, { name, slug, description: request.body.description ?? '', parentId });
  return termObject(added, { publicUrl: deps.publicUrl, site });
}
