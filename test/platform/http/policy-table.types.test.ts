import { describe, expect, it } from 'vitest';
import type { DeveloperPolicies } from '../../../src/services/developer/operations.js';
import type { ProfilesPolicies } from '../../../src/services/profiles/operations.js';
import type { PublishingPolicies } from '../../../src/services/publishing/operations.js';

/**
 * The policy tables are typed from the contracts like the handler maps:
 * these assignments are checked by `npm run typecheck` (`tsc -p test`),
 * which fails if a `@ts-expect-error` below stops being an error.
 */
describe('a policy table', () => {
  it('must name every operation of its contract, and only those', () => {
    // @ts-expect-error getAvatar is missing
    const missing: ProfilesPolicies = { getProfileById: {}, getOpenApiDocument: {} };
    // @ts-expect-error getProfile is no operation of the profiles contract
    const unknown: ProfilesPolicies = { getProfileById: {}, getAvatar: {}, getOpenApiDocument: {}, getProfile: {} };
    const complete: PublishingPolicies = {
      getSite: {},
      getPost: {},
      getPostLikes: {},
      getMyPostLike: {},
      getPostReplies: {},
      deletePost: {},
      restorePost: {},
      getOpenApiDocument: {},
    };
    // @ts-expect-error an admit step sees the service's own caller type: a developer session, not a profiles key
    const mistyped: Partial<DeveloperPolicies> = { getSession: { admit: (_ctx, principal: { kind: 'key' }) => void principal } };
    expect([missing, unknown, complete, mistyped]).toHaveLength(4);
  });
});
