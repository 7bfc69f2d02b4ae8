import type { HandlerInput } from '../../platform/pipeline/handlerTypes.js';
import type * as T from '../../../generated/publishing/types.gen.js';
import type { FlowDeps } from './flows/deps.js';
import {
  createTerm,
  deleteTerm,
  editTerm,
  listTerms,
  readTerm,
  type TermCollection,
  type TermListRequest,
} from './flows/terms.js';
import type { Viewer } from './domain/access.js';
import { postContext } from './domain/context.js';
import type { InputCasts } from './http/phpCast.js';
import {
  createTaxonomyTerm,
  deleteTaxonomyTerm,
  editTaxonomyTerm,
  listPostTypeTaxonomies,
  listTaxonomyTerms,
  readTaxonomyTerm,
} from './flows/taxonomyTerms.js';
import type { PublishingHandlers, PublishingPrincipal } from './operations.js';

type TaxonomyOperations =
  | 'listTaxonomyTerms'
  | 'getTaxonomyTerm'
  | 'createTaxonomyTerm'
  | 'updateTaxonomyTerm'
  | 'deleteTaxonomyTerm'
  | 'listPostTypeTaxonomies';

/** A term list's paging, order and search as a flow takes them (categories, tags and any taxonomy's terms alike). */
export const termPaging = (
  query?: Pick<TermListRequest, 'number' | 'offset' | 'page' | 'search' | 'order'> & {
    order_by?: TermListRequest['orderBy'];
  },
): Pick<TermListRequest, 'number' | 'offset' | 'page' | 'search' | 'order' | 'orderBy'> => ({
  number: query?.number,
  offset: query?.offset,
  page: query?.page,
  search: query?.search,
  order: query?.order,
  orderBy: query?.order_by,
});

/** What the taxonomy handlers take from the handler map: the caller's deps, viewer and user, and the casting step. */
export interface HandlerHelpers {
  scopedTo(principal: PublishingPrincipal): { deps: FlowDeps; reads: FlowDeps };
  viewerOf(principal: PublishingPrincipal): Viewer;
  userIdOf(principal: PublishingPrincipal): number;
  casts: InputCasts;
}

/** The handlers of the taxonomy terms and post-type taxonomies operations (thin: input to flow, flow to answer). */
export function taxonomyHandlers({
  scopedTo,
  viewerOf,
  userIdOf,
  casts,
}: HandlerHelpers): Pick<PublishingHandlers, TaxonomyOperations> {
  return {
    async listTaxonomyTerms({ path, query, principal }) {
      const request = {
        site: path.site,
        viewer: viewerOf(principal),
        taxonomy: path.taxonomy,
        ...termPaging(query),
      };
      return { status: 200, body: await listTaxonomyTerms(scopedTo(principal).reads, request) };
    },
    async getTaxonomyTerm({ path, query, principal }) {
      const request = {
        site: path.site,
        viewer: viewerOf(principal),
        taxonomy: path.taxonomy,
        slug: path.term_slug,
        context: postContext(query?.context),
      };
      return { status: 200, body: await readTaxonomyTerm(scopedTo(principal).reads, request) };
    },
    async createTaxonomyTerm({ path, body, principal }) {
      const request = {
        site: path.site,
        viewerId: userIdOf(principal),
        taxonomy: path.taxonomy,
        body: casts.body('createTaxonomyTerm', body),
      };
      return { status: 200, body: await createTaxonomyTerm(scopedTo(principal).deps, request) };
    },
    async updateTaxonomyTerm({ path, body, principal }) {
      const request = {
        site: path.site,
        viewerId: userIdOf(principal),
        taxonomy: path.taxonomy,
        slug: path.term_slug,
        body: casts.body('updateTaxonomyTerm', body),
      };
      return { status: 200, body: await editTaxonomyTerm(scopedTo(principal).deps, request) };
    },
    async deleteTaxonomyTerm({ path, principal }) {
      const request = { site: path.site, viewerId: userIdOf(principal), taxonomy: path.taxonomy, slug: path.term_slug };
      return { status: 200, body: await deleteTaxonomyTerm(scopedTo(principal).deps, request) };
    },
    async listPostTypeTaxonomies({ path, principal }) {
      const request = { site: path.site, viewer: viewerOf(principal), postType: path.post_type };
      return { status: 200, body: await listPostTypeTaxonomies(scopedTo(principal).reads, request) };
    },
  };
}

type CategoryAndTagOperations =
  | 'listCategories'
  | 'listTags'
  | 'getCategoryBySlug'
  | 'getTagBySlug'
  | 'createCategory'
  | 'createTag'
  | 'updateCategory'
  | 'updateTag'
  | 'deleteCategory'
  | 'deleteTag';

/**
 * The five term operations of categories or tags, each taking either
 * collection's input (their contracts differ only in the path's word).
 */
function termSteps(collection: TermCollection, { scopedTo, viewerOf, userIdOf }: HandlerHelpers) {
  return {
    /** A list: the query's paging, order and search, for the caller. */
    async list({ path, query, principal }: HandlerInput<T.ListCategoriesData | T.ListTagsData, PublishingPrincipal>) {
      const request = { site: path.site, viewer: viewerOf(principal), collection, ...termPaging(query) };
      return { status: 200 as const, body: await listTerms(scopedTo(principal).reads, request) };
    },
    /** One term by its slug. */
    async bySlug({
      path,
      query,
      principal,
    }: HandlerInput<T.GetCategoryBySlugData | T.GetTagBySlugData, PublishingPrincipal>) {
      const request = {
        site: path.site,
        viewer: viewerOf(principal),
        collection,
        slug: path.term_slug,
        context: postContext(query?.context),
      };
      return { status: 200 as const, body: await readTerm(scopedTo(principal).reads, request) };
    },
    /** A new term. */
    async create({ path, body, principal }: HandlerInput<T.CreateCategoryData | T.CreateTagData, PublishingPrincipal>) {
      const request = { site: path.site, viewerId: userIdOf(principal), collection, body };
      return { status: 200 as const, body: await createTerm(scopedTo(principal).deps, request) };
    },
    /** An edit of a term named by its slug. */
    async edit({ path, body, principal }: HandlerInput<T.UpdateCategoryData | T.UpdateTagData, PublishingPrincipal>) {
      const request = { site: path.site, viewerId: userIdOf(principal), collection, slug: path.term_slug, body };
      return { status: 200 as const, body: await editTerm(scopedTo(principal).deps, request) };
    },
    /** The deletion of a term named by its slug. */
    async remove({ path, principal }: HandlerInput<T.DeleteCategoryData | T.DeleteTagData, PublishingPrincipal>) {
      const request = { site: path.site, viewerId: userIdOf(principal), collection, slug: path.term_slug };
      return { status: 200 as const, body: await deleteTerm(scopedTo(principal).deps, request) };
    },
  };
}

/** The handlers of the categories and tags operations: one set of steps, each bound to its collection. */
export function categoryAndTagHandlers(helpers: HandlerHelpers): Pick<PublishingHandlers, CategoryAndTagOperations> {
  const categories = termSteps('categories', helpers);
  const tags = termSteps('tags', helpers);
  return {
    listCategories: categories.list,
    listTags: tags.list,
    getCategoryBySlug: categories.bySlug,
    getTagBySlug: tags.bySlug,
    createCategory: categories.create,
    createTag: tags.create,
    updateCategory: categories.edit,
    updateTag: tags.edit,
    deleteCategory: categories.remove,
    deleteTag: tags.remove,
  };
}
