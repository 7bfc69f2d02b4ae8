import type { FlowDeps } from './flows/deps.js';
import type { TermListRequest } from './flows/terms.js';
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
