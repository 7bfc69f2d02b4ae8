import type { Contract } from '../http/contract.js';
import { notImplemented } from '../http/errors.js';
import type { PublishingHandlers } from './operations.js';

export interface PublishingHandlerDeps {
  contract: Contract;
}

/** The publishing handler map: one function per operationId of `openapi/publishing.yaml`. */
export function createPublishingHandlers(deps: PublishingHandlerDeps): PublishingHandlers {
  return {
    async restorePost() {
      throw notImplemented();
    },
    async getOpenApiDocument() {
      return { status: 200, body: deps.contract.document };
    },
  };
}
