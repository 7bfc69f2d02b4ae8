import type { Contract } from '../http/contract.js';
import { postContext } from './domain/context.js';
import { restoreTrashedPost } from './domain/restore.js';
import { publishingUnauthenticated } from './errors.js';
import type { PublishingHandlers } from './operations.js';
import type { PublishingStore } from './store/publishingStore.js';

export interface PublishingHandlerDeps {
  contract: Contract;
  store: PublishingStore;
  /** Base of absolute API links (`PUBLIC_URL`). */
  publicUrl: string;
  onRestore?: (outcome: 'restored' | 'unchanged') => void;
}

/** The publishing handler map: one function per operationId of `openapi/publishing.yaml`. */
export function createPublishingHandlers(deps: PublishingHandlerDeps): PublishingHandlers {
  return {
    async restorePost({ path, query, principal }) {
      // The contract requires a token, so the pipeline answers 401 before this; the type still allows anonymous.
      if (principal.kind !== 'user') throw publishingUnauthenticated('missing');
      const post = await restoreTrashedPost(
        { store: deps.store, publicUrl: deps.publicUrl, onRestore: deps.onRestore },
        { site: path.site, postId: path.post_ID, viewerId: principal.userId, context: postContext(query.context), meta: query.meta },
      );
      return { status: 200, body: post };
    },
    async getOpenApiDocument() {
      return { status: 200, body: deps.contract.document };
    },
  };
}
