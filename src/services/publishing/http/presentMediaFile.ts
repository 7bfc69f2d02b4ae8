import type { Outgoing, Presenter } from '../../../platform/pipeline/service.js';
import { setHeaders } from '../../../platform/answers/headers.js';
import { notModified } from '../../../platform/answers/ifNoneMatch.js';

/**
 * The presenter of media files: a file's bytes as they are, with its
 * headers, or `304` when `If-None-Match` names its `ETag`; any other answer
 * (an error) as the service presents every answer.
 */
export function presentMediaFile(present: Presenter): Presenter {
  return (ctx, answer: Outgoing, ...rest) => {
    if (!Buffer.isBuffer(answer.body)) return present(ctx, answer, ...rest);
    ctx.status = answer.status;
    setHeaders(ctx, answer.headers);
    const etag = answer.headers.ETag ?? '';
    if (notModified(ctx.req, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.body = answer.body;
  };
}
