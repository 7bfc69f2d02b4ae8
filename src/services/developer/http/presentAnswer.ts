import type { AnswerContext } from '../../../platform/answers/headers.js';
import { setHeader, setHeaders } from '../../../platform/answers/headers.js';
import { writeJson, type Outgoing } from '../../../platform/pipeline/service.js';

/**
 * Writes a dashboard API answer as JSON. Nothing is ever cached: answers
 * depend on the session and may carry a key shown only once.
 */
export function presentDeveloperAnswer(ctx: AnswerContext, answer: Outgoing): void {
  ctx.status = answer.status;
  setHeaders(ctx, answer.headers);
  setHeader(ctx, 'Cache-Control', 'no-store');
  if (answer.body !== undefined) writeJson(ctx, answer.body);
}
