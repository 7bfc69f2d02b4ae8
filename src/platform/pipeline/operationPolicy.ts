import type { Context } from 'koa';
import type { ContractOperation } from '../contract/types.js';
import type { AnswerContext } from '../answers/headers.js';

/**
 * What an operation's policy is made of: the steps before its handler and
 * the writer of its answer. Both the service definition (service.ts) and
 * the typed handler maps (handlerTypes.ts) name these, so they live below both.
 */

/** An answer on its way out: a handler's result or an error already in the service's format. */
export interface Outgoing {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** True when `body` is an error body. */
  isError: boolean;
  /** A plain-text body (`text/plain`) written as it is, instead of `body` as JSON; never enveloped or wrapped. */
  text?: string;
}

/**
 * A step run after security and before the request body is read (a rate
 * limit, a CSRF check): may set headers, or throw an ApiError (or reject
 * with one). Returns nothing when it has nothing to wait for, so such
 * requests take no asynchronous step.
 */
export type AdmitStep<Principal = unknown> = (ctx: Context, principal: Principal) => Promise<void> | void;

/** What a presenter reads of the operation that answered: its declared query parameters. */
export type PresentedOperation = Pick<ContractOperation, 'queryParams'>;

/**
 * Writes an answer to the response (status, headers, body). `operation` is
 * the operation that answered, undefined for a request no operation took: a
 * presenter reads what it needs of it (its declared query parameters)
 * without looking it up by name on every answer. It sees only what writing an
 * answer takes (`AnswerContext`), which Koa's context is.
 */
export type Presenter = (ctx: AnswerContext, answer: Outgoing, operation: PresentedOperation | undefined) => void;

/**
 * How the platform treats one operation besides calling its handler. A
 * module declares one per operationId of its contract (`PolicyTable` in
 * handlerTypes.ts), instead of comparing operationIds inside its hooks.
 */
export interface OperationPolicy<Principal = unknown> {
  /** Runs after security and before the body: rate limits, CSRF checks, log-in attempts. Several run in order. */
  admit?: AdmitStep<Principal> | readonly AdmitStep<Principal>[];
  /** Writes the operation's answers and errors (ETag and 304, envelope, cache headers); default: the service's `present`. */
  present?: Presenter;
}
