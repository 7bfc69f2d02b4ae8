import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { ResponseValidation } from '../config.js';
import { describeErrors } from '../contract/ajv.js';
import type { ContractOperation, ResponseHeaders } from '../contract/types.js';
import { isDeadlock, isStoreUnavailable } from '../store/unavailable.js';
import { EncodedJson } from '../answers/encodedJson.js';
import { ApiError, internalError, invalidRequest, serviceUnavailable } from '../answers/errors.js';
import type { Outgoing, Presenter, ServiceDefinition } from './service.js';

/*
 * The pipeline's answer steps (`contractPipeline`): an error as the
 * service's answer, the answer checked against the contract before and
 * after it is presented, and the cap on an answer's size.
 */

/** What the answer steps need of the pipeline's options (`PipelineOptions` extends it). */
export interface AnswerOptions {
  logger: Logger;
  responseValidation: ResponseValidation;
  /** `Retry-After` (seconds) of a 503 when the store is unavailable; 1 by default. */
  storeRetryAfterSeconds?: number;
  /** Largest JSON or text answer sent (bytes, as written); a larger one becomes a 400 (see `presentWithinCap`). Unset: no cap. */
  maxAnswerBytes?: number;
}

/**
 * An error as the service's answer: an ApiError as it is; a store that is
 * down or busy (see `isStoreUnavailable`) as 503 with `Retry-After`, logged
 * as a warning (a deadlock as an error: see `isDeadlock`); anything else as a
 * 500, logged with its cause.
 */
export function toErrorAnswer(
  service: ServiceDefinition,
  error: unknown,
  ctx: Context,
  options: AnswerOptions,
): Outgoing {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (isStoreUnavailable(error)) {
    apiError = serviceUnavailable(options.storeRetryAfterSeconds ?? 1);
    const fields = { err: error, requestId: ctx.state.requestId, service: service.name };
    // A deadlock is answered the same, but it is the writes' defect, not the store's state: an error to look into.
    if (isDeadlock(error)) options.logger.error(fields, 'deadlock: two writes took their locks in opposite orders');
    else options.logger.warn(fields, 'store unavailable');
  } else {
    apiError = internalError();
    options.logger.error({ err: error, requestId: ctx.state.requestId, service: service.name }, 'unhandled error');
  }
  return { status: apiError.status, body: service.errorBody(apiError), headers: apiError.headers, isError: true };
}

/**
 * Validates an answer against the contract before it leaves. In `strict`
 * mode (tests, development) a violation becomes a 500 so it cannot go
 * unnoticed; in `log` mode it is logged and sent as is.
 */
export function checkResponse(
  service: ServiceDefinition,
  operation: ContractOperation,
  outgoing: Outgoing,
  ctx: Context,
  options: { logger: Logger; responseValidation: ResponseValidation },
): Outgoing {
  const validate = operation.responseValidators[String(outgoing.status)];
  let problem: string | null = null;
  // Bytes (an image) are the answer of a status declared with a media type other than JSON.
  if (Buffer.isBuffer(outgoing.body)) {
    if (!operation.binaryStatuses.has(String(outgoing.status)))
      problem = `status ${outgoing.status} is not declared with a binary media type`;
  } else if (!validate && outgoing.body !== undefined) problem = `status ${outgoing.status} is not declared`;
  else if (validate && !validate(checked(outgoing.body))) problem = describeErrors(validate.errors ?? []);
  if (!problem) return outgoing;
  options.logger.error(
    { requestId: ctx.state.requestId, operationId: operation.operationId, status: outgoing.status, problem },
    'response does not match the contract',
  );
  if (options.responseValidation !== 'strict') return outgoing;
  const error = internalError();
  return { status: 500, body: service.errorBody(error), headers: {}, isError: true };
}

/** What an answer body is to the validators: an encoded one decoded, an absent one JSON null (openapi-backend checks a content-less 204 against `type: null`). */
const checked = (body: unknown) => (body instanceof EncodedJson ? body.decode() : (body ?? null));

/**
 * Validates the headers of an answer already written against what the
 * operation declares for its status (required ones present, each valid).
 * In `strict` mode a violation turns the answer into a 500, with only the
 * headers it had before the presenter ran; in `log` mode it is logged.
 */
export function checkResponseHeaders(
  service: ServiceDefinition,
  operation: ContractOperation,
  present: Presenter,
  before: ResponseHeaders,
  ctx: Context,
  options: { logger: Logger; responseValidation: ResponseValidation },
) {
  const problem = service.contract.validateResponseHeaders(operation.operationId, ctx.status, ctx.response.headers);
  if (!problem) return;
  options.logger.error(
    { requestId: ctx.state.requestId, operationId: operation.operationId, status: ctx.status, problem },
    'response does not match the contract',
  );
  if (options.responseValidation !== 'strict') return;
  for (const name of Object.keys(ctx.response.headers)) if (!(name in before)) ctx.remove(name);
  for (const [name, value] of Object.entries(before))
    if (value !== undefined) ctx.set(name, value as string | string[]);
  ctx.body = null;
  present(ctx, { status: 500, body: service.errorBody(internalError()), headers: {}, isError: true }, operation);
}

/**
 * Presents an answer, unless its JSON or text body comes out larger than
 * `maxAnswerBytes` (`MAX_ANSWER_BYTES`): then the client gets, instead, a 400
 * in the service's error format saying so (it can ask for less: fewer
 * `fields`, `meta` links or items). Images are not capped here. An encoded
 * body (`EncodedJson`) is capped as written too: a presenter may wrap what
 * it encodes (publishing's envelope, JSONP).
 */
export function presentWithinCap(
  ctx: Context,
  present: Presenter,
  service: ServiceDefinition,
  outgoing: Outgoing,
  options: AnswerOptions,
  operation: ContractOperation | undefined,
) {
  const cap = options.maxAnswerBytes;
  if (!cap || Buffer.isBuffer(outgoing.body)) return present(ctx, outgoing, operation);
  // Only the names: the copy of every header (`ctx.response.headers`) would cost each answer more.
  const before = ctx.res.getHeaderNames();
  present(ctx, outgoing, operation);
  if (!Buffer.isBuffer(ctx.body) || ctx.body.length <= cap) return;
  options.logger.warn({ requestId: ctx.state.requestId, bytes: ctx.body.length, cap }, 'answer larger than the cap');
  for (const name of ctx.res.getHeaderNames()) if (!before.includes(name)) ctx.remove(name);
  ctx.body = null;
  const tooLarge = invalidRequest(`The answer would be larger than ${cap} bytes; ask for less (fields, meta, number)`);
  present(ctx, { status: 400, body: service.errorBody(tooLarge), headers: {}, isError: true }, operation);
}
