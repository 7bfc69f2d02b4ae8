import type { CastBodies } from '../../../../generated/publishing/casts.gen.js';
import type {
  PostTypeTaxonomies,
  TaxonomyTermDeleted,
  Term,
  TermList,
} from '../../../../generated/publishing/types.gen.js';
import {
  duplicateTermConflict,
  emptyTermName,
  invalidTaxonomy,
  invalidWriteInput,
  missingParentTerm,
  unknownPostType,
  unknownTaxonomy,
} from '../errors.js';
import { openSite, type Viewer } from '../domain/access.js';
import type { PostContext } from '../domain/context.js';
import { type StoredText, storedText } from '../domain/storedText.js';
import type { FlowDeps } from './deps.js';
import { termObject } from './postObject.js';
import {
  createTerm,
  deleteTerm,
  listTerms,
  readTerm,
  type TermCollection,
  type TermListRequest,
  termToChange,
} from './terms.js';

/**
 * The taxonomy terms endpoints (`/sites/{site}/taxonomies/{taxonomy}/terms`,
 * `…/new`, `…/slug:{slug}`, `…/delete`: Jetpack's list-terms, get-term and
 * update-term endpoints), which the web editor and the Android app use for
 * categories and tags, and the post-type taxonomies list. The list, read,
 * new and delete are the categories and tags operations' (`terms.ts`) with
 * this endpoint's own answers; the edit follows its own rules.
 */

const COLLECTION_OF: Readonly<Record<string, TermCollection>> = { category: 'categories', post_tag: 'tags' };

type Deps = Pick<FlowDeps, 'store' | 'publicUrl'>;

/**
 * The collection a taxonomy path names; another taxonomy is 400
 * `invalid_taxonomy`, after the site's own errors (the platform validates
 * the site first).
 */
async function collectionOf(deps: Deps, site: string, viewer: Viewer, taxonomy: string): Promise<TermCollection> {
  const collection = Object.hasOwn(COLLECTION_OF, taxonomy) ? COLLECTION_OF[taxonomy] : undefined;
  if (collection) return collection;
  await openSite(deps.store, site, viewer);
  throw invalidTaxonomy();
}

const userViewer = (viewerId: number): Viewer => ({ id: viewerId, loggedIn: true });

/** One page of the taxonomy's terms, under `terms` (the categories and tags lists' rules). */
export async function listTaxonomyTerms(
  deps: Deps,
  request: Omit<TermListRequest, 'collection'> & { taxonomy: string },
): Promise<TermList> {
  const { taxonomy, ...rest } = request;
  const collection = await collectionOf(deps, request.site, request.viewer, taxonomy);
  const { found, [collection]: terms } = await listTerms(deps, { ...rest, collection });
  return { found, terms: terms ?? [] };
}

/** The term with that slug (the categories and tags reads' rules). */
export async function readTaxonomyTerm(
  deps: Deps,
  request: { site: string; viewer: Viewer; taxonomy: string; slug: string; context: PostContext },
): Promise<Term> {
  const collection = await collectionOf(deps, request.site, request.viewer, request.taxonomy);
  return readTerm(deps, { ...request, collection });
}

/** A term's fields as the endpoint layer casts them, typed from the contract (`CastBodies`, generated). */
export type TaxonomyTermBody = CastBodies['createTaxonomyTerm' | 'updateTaxonomyTerm'];

/** A new term (the categories and tags rules, but a duplicate name is 409). */
export async function createTaxonomyTerm(
  deps: Deps,
  request: { site: string; viewerId: number; taxonomy: string; body: TaxonomyTermBody },
): Promise<Term> {
  const collection = await collectionOf(deps, request.site, userViewer(request.viewerId), request.taxonomy);
  return createTerm(deps, { ...request, collection }, duplicateTermConflict);
}

/**
 * An edit as the platform's `update_term` makes it: the right (403), the
 * term (404), a body with nothing in it (400 `invalid_input`); then a
 * category's parent is always set (0 when not sent: `wp_update_term` takes
 * the missing value as 0), a description whenever sent (`isset`), a name
 * when not empty. A parent that is the category or one below it makes it
 * top-level; one the site has not is 400 `missing_parent`.
 */
export async function editTaxonomyTerm(
  deps: Deps,
  request: { site: string; viewerId: number; taxonomy: string; slug: string; body: TaxonomyTermBody },
): Promise<Term> {
  const { store } = deps;
  const collection = await collectionOf(deps, request.site, userViewer(request.viewerId), request.taxonomy);
  const { site, taxonomy, term, roleCapabilities } = await termToChange(store, { ...request, collection });
  const { name, description, parent } = request.body;
  if (name === undefined && description === undefined && parent === undefined) throw invalidWriteInput();
  const fields: { name?: StoredText; description?: StoredText; parentId?: number } = {};
  if (collection === 'categories') {
    const parentId = parent ?? 0;
    if (parentId > 0 && !(await store.hasTerm(site.id, taxonomy, parentId))) throw missingParentTerm();
    const loops =
      parentId > 0 &&
      (parentId === term.id || (await store.termIdsBelow(site.id, taxonomy, term.id)).includes(parentId));
    fields.parentId = loops || parentId < 0 ? 0 : parentId;
  }
  if (description !== undefined) fields.description = storedText('termDescription', description, roleCapabilities);
  if (name !== undefined && name !== '' && name !== '0') {
    fields.name = storedText('termName', name, roleCapabilities);
    if (fields.name === '') throw emptyTermName();
  }
  await store.updateTerm(site.id, taxonomy, term.id, fields);
  const edited = await store.findTermBySlug(site.id, taxonomy, term.slug);
  if (!edited) throw unknownTaxonomy();
  return termObject(edited, { publicUrl: deps.publicUrl, site });
}

/** A deletion (the categories and tags rules), answered with `success: true` as a boolean. */
export async function deleteTaxonomyTerm(
  deps: Pick<FlowDeps, 'store'>,
  request: { site: string; viewerId: number; taxonomy: string; slug: string },
): Promise<TaxonomyTermDeleted> {
  const collection = await collectionOf(
    { ...deps, publicUrl: '' },
    request.site,
    userViewer(request.viewerId),
    request.taxonomy,
  );
  const { slug } = await deleteTerm(deps, { ...request, collection });
  return { slug, success: true };
}

/** A taxonomy as the post-type taxonomies list shows it (`name`, `label`, `labels`, `description`, `hierarchical`, `public`, `cap`). */
function taxonomyObject(name: 'category' | 'post_tag') {
  const category = name === 'category';
  const [plural, singular] = category ? ['Categories', 'Category'] : ['Tags', 'Tag'];
  const many = plural.toLowerCase();
  const one = singular.toLowerCase();
  const flat = (label: string) => (category ? null : label);
  return {
    name,
    label: plural,
    labels: {
      name: plural,
      singular_name: singular,
      search_items: `Search ${plural}`,
      popular_items: flat(`Popular ${plural}`),
      all_items: `All ${plural}`,
      parent_item: category ? `Parent ${singular}` : null,
      parent_item_colon: category ? `Parent ${singular}:` : null,
      edit_item: `Edit ${singular}`,
      view_item: `View ${singular}`,
      update_item: `Update ${singular}`,
      add_new_item: `Add New ${singular}`,
      new_item_name: `New ${singular} Name`,
      separate_items_with_commas: flat(`Separate ${many} with commas`),
      add_or_remove_items: flat(`Add or remove ${many}`),
      choose_from_most_used: flat(`Choose from the most used ${many}`),
      not_found: `No ${many} found.`,
      no_terms: `No ${many}`,
      filter_by_item: category ? `Filter by ${one}` : null,
      items_list_navigation: `${plural} list navigation`,
      items_list: `${plural} list`,
      most_used: 'Most Used',
      back_to_items: `← Go to ${plural}`,
      item_link: `${singular} Link`,
      item_link_description: `A link to a ${one}.`,
      menu_name: plural,
      name_admin_bar: name,
    },
    description: '',
    hierarchical: category,
    public: true,
    capabilities: category
      ? {
          manage_terms: 'manage_categories',
          edit_terms: 'edit_categories',
          delete_terms: 'delete_categories',
          assign_terms: 'assign_categories',
        }
      : {
          manage_terms: 'manage_post_tags',
          edit_terms: 'edit_post_tags',
          delete_terms: 'delete_post_tags',
          assign_terms: 'assign_post_tags',
        },
  };
}

/** The taxonomies each type takes here: posts, categories and tags; other types none. */
const TAXONOMIES_OF_TYPE: Readonly<Record<string, readonly ('category' | 'post_tag')[]>> = {
  post: ['category', 'post_tag'],
};

/** The taxonomies of one of the site's post types; a type the site has not is 404 `unknown_post_type`. */
export async function listPostTypeTaxonomies(
  deps: Pick<FlowDeps, 'store'>,
  request: { site: string; viewer: Viewer; postType: string },
): Promise<PostTypeTaxonomies> {
  const { site } = await openSite(deps.store, request.site, request.viewer);
  const known =
    request.postType === 'post' || request.postType === 'page' || site.extraPostTypes.includes(request.postType);
  if (!known) throw unknownPostType();
  const names = Object.hasOwn(TAXONOMIES_OF_TYPE, request.postType) ? (TAXONOMIES_OF_TYPE[request.postType] ?? []) : [];
  const taxonomies = names.map(taxonomyObject);
  return { found: taxonomies.length, taxonomies };
}
