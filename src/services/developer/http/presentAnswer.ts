import type { Context } from 'koa';
import { writeJson, type Outgoing } from '../../../platform/pipeline/service.js';

/**
 * Writes a dashboard API answer as JSON. Nothing is ever cached: answers
 * depend on the session and may carry a key shown only once.
 */
export function presentDeveloperAnswer(ctx: Context, answer: Outgoing): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set('Cache-Control', 'no-store');
  if (answer.body !== undefined) writeJson(ctx, answer.body);
}
