import { describe, expectTypeOf, it } from 'vitest';
import type { DeveloperPolicies, DeveloperSecurity } from '../../../src/services/developer/operations.js';
import type { ProfilesPolicies, ProfilesSecurity } from '../../../src/services/profiles/operations.js';
import type {
  AllDeclareCallback,
  PublishingPolicies,
  PublishingSecurity,
} from '../../../src/services/publishing/operations.js';

/**
 * The policy tables are typed from the contracts like the handler maps:
 * vitest's type check (in `npm test`) runs tsc on this file, and fails if
 * a `@ts-expect-error` below stops being an error.
 */
describe('a policy table', () => {
  it('must name every operation of its contract, and only those', () => {
    // @ts-expect-error getAvatar is missing
    const missing: ProfilesPolicies = { getProfileById: {}, getOpenApiDocument: {} };
    // @ts-expect-error getProfile is no operation of the profiles contract
    const unknown: ProfilesPolicies = { getProfileById: {}, getAvatar: {}, getOpenApiDocument: {}, getProfile: {} };
    const complete: PublishingPolicies = {
      getMe: {},
      getMySites: {},
      getMySitesV12: {},
      getSite: {},
      listPosts: {},
      getPostCounts: {},
      getPost: {},
      getPostBySlug: {},
      getPostLikes: {},
      getMyPostLike: {},
      getPostReplies: {},
      createPost: {},
      updatePost: {},
      bulkDeletePosts: {},
      bulkRestorePosts: {},
      deletePost: {},
      restorePost: {},
      getOpenApiDocument: {},
      listMedia: {},
      uploadMedia: {},
      getMedia: {},
      updateMedia: {},
      deleteMedia: {},
      getMediaV12: {},
      editMediaV12: {},
      getMediaFile: {},
      listPostsV12: {},
      createPostV12: {},
      getPostV12: {},
      updatePostV12: {},
      listPostTypes: {},
      listCategories: {},
      listTags: {},
      getCategoryBySlug: {},
      getTagBySlug: {},
      createCategory: {},
      createTag: {},
      updateCategory: {},
      updateTag: {},
      deleteCategory: {},
      deleteTag: {},
      getPostAutosave: {},
      autosavePost: {},
      getPostDiffs: {},
      getPageDiffs: {},
      getPostCountsV12: {},
      getPostLikesV12: {},
      listTaxonomyTerms: {},
      getTaxonomyTerm: {},
      createTaxonomyTerm: {},
      updateTaxonomyTerm: {},
      deleteTaxonomyTerm: {},
      listPostTypeTaxonomies: {},
    };
    const keyAdmit = (_ctx: unknown, principal: { kind: 'key' }) => void principal;
    // @ts-expect-error an admit step sees the service's own caller type: a developer session, not a profiles key
    const mistyped: Partial<DeveloperPolicies> = { getSession: { admit: keyAdmit } };
    expectTypeOf(complete).toEqualTypeOf<PublishingPolicies>();
    void [missing, unknown, mistyped];
  });
});

/**
 * The security resolvers are typed from the contracts too: the scheme names
 * come from `generated/<service>/contract.gen.ts` (`npm run generate`), so a
 * scheme without a resolver, or a resolver without a scheme, fails the type
 * check before the app's start-up check would refuse it.
 */
describe("a module's security resolvers", () => {
  const anonymous = async () => null;
  it('must be one per security scheme of its contract, and no other', () => {
    // @ts-expect-error apiKey, a scheme of the profiles contract, has no resolver
    const missing: ProfilesSecurity = { oauth: anonymous };
    // @ts-expect-error sessionCookie is no security scheme of the profiles contract
    const unknown: ProfilesSecurity = { apiKey: anonymous, oauth: anonymous, sessionCookie: anonymous };
    // @ts-expect-error a resolver is keyed by its scheme's name (bearerToken), not by the kind of credential
    const misnamed: PublishingSecurity = { bearer: anonymous };
    const complete: DeveloperSecurity = { sessionCookie: anonymous };
    // @ts-expect-error a resolver answers the service's own caller type: a publishing user, not a profiles key
    const mistyped: PublishingSecurity = { bearerToken: async () => ({ kind: 'key', keyId: 'k', accountId: 'a' }) };
    expectTypeOf(complete).toEqualTypeOf<DeveloperSecurity>();
    void [missing, unknown, misnamed, mistyped];
  });
});

/** Publishing answers JSONP from every operation: the compiler refuses a contract operation without `callback`. */
describe('the publishing operations', () => {
  it('must each declare the callback query parameter', () => {
    type Declaring = { getPost: { data: { query?: { callback?: string; pretty?: boolean } } } };
    type Missing = {
      getPost: { data: { query?: { callback?: string } } };
      getLikes: { data: { query?: { pretty?: boolean } } };
    };
    const every: AllDeclareCallback<Declaring> = true;
    // @ts-expect-error getLikes declares no callback: the check names it instead of being true
    const missing: AllDeclareCallback<Missing> = true;
    expectTypeOf<AllDeclareCallback<Missing>>().toEqualTypeOf<'getLikes'>();
    void [every, missing];
  });
});
