import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { ResponseValidation } from '../config.js';
import { describeErrors } from '../contract/ajv.js';
import type { ContractOperation, ResponseHeaders } from '../contract/types.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { callerOf, readFloor, type ReadYourWrites } from '../store/readYourWrites.js';
import {
  ApiError,
  internalError,
  invalidRequest,
  methodNotAllowed,
  routeNotFound,
  serviceUnavailable,
} from '../answers/errors.js';
import { readFormBody, readMultipartBody } from './formBodies.js';
import { readQuery } from './queryParameters.js';
import { ContractRouter } from './router.js';
import { presentJson, resolveOperations, type ResolvedOperation } from './resolveOperations.js';
import {
  ownedBy,
  type AdmitStep,
  type Outgoing,
  type Presenter,
  type RouteMiss,
  type ServiceDefinition,
} from './service.js';

export interface PipelineOptions {
  logger: Logger;
  responseValidation: ResponseValidation;
  /** `Retry-After` (seconds) of a 503 when the store is unavailable; 1 by default. */
  storeRetryAfterSeconds?: number;
  /** Largest JSON or text answer sent (bytes, as written); a larger one becomes a 400 (see `presentWithinCap`). Unset: no cap. */
  maxAnswerBytes?: number;
  /** The rate limit of a service's answers that no operation gives (404, 405, answers before routing). */
  unroutedLimit?: AdmitStep;
  /** With read replicas: a caller's reads after its own write do not come from a replica behind it. */
  readYourWrites?: ReadYourWrites;
}

interface Mounted {
  service: ServiceDefinition;
  router: ContractRouter;
  /** Whether a request path is this service's. */
  owns: (path: string) => boolean;
  /** Reads the JSON body of an operation that declares one. */
  parseBody: BodyParser;
  /** Each operation's security, admit steps and presenter, from the module's policy table. */
  operations: Map<ContractOperation, ResolvedOperation>;
  /** Writes what no operation answers (unrouted paths, answers before routing). */
  present: Presenter;
}

/**
 * The request pipeline of every contract operation, on one screen
 * (docs/architecture.md draws it in the whole request's life):
 * route (404/405, or the service's own answer, `onRouteMiss`; counted by
 * `unroutedLimit`) -> security (the module's resolver for the
 * operation's scheme; a refusal counted by the operation's limits) -> admit
 * (the operation's policy: rate limits, CSRF) -> body (only where the operation
 * declares one) -> validate -> handler -> response body validation
 * -> present (the operation's policy) -> response header validation. With read replicas, a caller
 * that wrote a moment ago reads at or past its write (`runHandler`). Each failure is an ApiError that the
 * service turns into its own error body; anything else is a 500 with nothing
 * internal in it, logged once with its cause.
 */
export function contractPipeline(services: readonly ServiceDefinition[], options: PipelineOptions): Middleware {
  const mounted: Mounted[] = services.map((service) => ({
    service,
    router: new ContractRouter(service.prefix, service.contract.operations, {
      ignoreTrailingSlash: service.ignoreTrailingSlash,
    }),
    owns: ownedBy(service),
    parseBody: jsonBodyParser(service.contract.operations),
    operations: resolveOperations(service),
    present: service.present ?? presentJson,
  }));

  return async function pipeline(ctx, next) {
    const path = ctx.path;
    let entry: Mounted | undefined;
    for (const candidate of mounted) {
      if (candidate.owns(path)) {
        entry = candidate;
        break;
      }
    }
    if (!entry) return next();
    const { service, router, parseBody } = entry;
    ctx.state.service = service.name;
    let operation: ContractOperation | undefined;
    let policy: ResolvedOperation | undefined;
    let outgoing: Outgoing;
    try {
      const match = router.match(ctx.method, path);
      if (match.kind !== 'operation') {
        const limited = options.unroutedLimit?.(ctx, service.anonymous);
        if (limited) await limited;
        outgoing = routeMiss(service, ctx, match);
      } else {
        operation = match.operation;
        policy = entry.operations.get(operation)!;
        ctx.state.operationId = operation.operationId;

        // Each step is awaited only when it has something to wait for: every await costs every request.
        let principal: unknown;
        try {
          principal = resolvePrincipal(ctx, service, operation, policy);
          if (principal instanceof Promise) principal = await principal;
        } catch (refused) {
          // A refused credential counts too, as the anonymous caller: guessing tokens costs the guesser's budget.
          const limited = refused instanceof ApiError ? policy.limits?.(ctx, service.anonymous) : undefined;
          if (limited) await limited;
          throw refused;
        }
        const admitted = policy.admit?.(ctx, principal);
        if (admitted) await admitted;
        let input = validateInput(ctx, operation, match.rawParams, parseBody);
        if (input instanceof Promise) input = await input;
        const handler = policy.handler;
        const request = {
          path: input.path,
          query: input.query,
          body: input.body,
          headers: ctx.headers,
          principal,
          requestId: ctx.state.requestId,
          ctx,
        };
        let answer = options.readYourWrites
          ? runHandler(options.readYourWrites, ctx, policy, () => handler(request))
          : handler(request);
        if (answer instanceof Promise) answer = await answer;
        outgoing = { status: answer.status, body: answer.body, headers: answer.headers ?? {}, isError: false };
      }
    } catch (error) {
      outgoing = toErrorAnswer(service, error, ctx, options);
    }
    const present = policy?.present ?? entry.present;
    if (!operation || options.responseValidation === 'off')
      return presentWithinCap(ctx, present, service, outgoing, options, operation);
    outgoing = checkResponse(service, operation, outgoing, ctx, options);
    // Headers are checked as the client gets them: after the presenter (ETag, Cache-Control) and the admit step (rate limits).
    const before = ctx.response.headers;
    presentWithinCap(ctx, present, service, outgoing, options, operation);
    checkResponseHeaders(service, operation, present, before, ctx, options);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs a handler as read-your-writes asks: a caller (its credential) that
 * wrote within the window reads at or past its write's position (a replica
 * that has replayed it, or the primary); a caller's successful write keeps
 * the primary's position for it before the answer goes, so its very next
 * request, on any instance, sees it.
 */
async function runHandler<T extends { status: number }>(
  readYourWrites: ReadYourWrites,
  ctx: Context,
  policy: ResolvedOperation,
  handler: () => T | Promise<T>,
): Promise<T> {
  const credential = policy.credential?.read(ctx);

  if (!credential) return handler();
  const caller = callerOf(credential);
  if (!SAFE_METHODS.has(ctx.method)) {
    const answer = await handler();
    if (answer.status < 400) await readYourWrites.wrote(caller);
    return answer;
  }
  let floor = readYourWrites.floorOf(caller);
  if (floor instanceof Promise) floor = await floor;
  return floor === undefined ? handler() : readFloor.run(floor, handler);
}

/** A request no operation takes, answered the service's way (`onRouteMiss`), else 404 `not_found` or 405 with `Allow`. */
function routeMiss(service: ServiceDefinition, ctx: Context, miss: RouteMiss): Outgoing {
  if (service.onRouteMiss) return service.onRouteMiss(ctx, miss);
  throw miss.kind === 'not-found' ? routeNotFound() : methodNotAllowed(miss.allow);
}

/** The caller: the service's anonymous principal, or whoever the credential of the operation's scheme names (which takes the store). */
function resolvePrincipal(
  ctx: Context,
  service: ServiceDefinition,
  operation: ContractOperation,
  policy: ResolvedOperation,
): unknown {
  if (!policy.credential) return service.anonymous;
  const token = policy.credential.read(ctx);
  if (!token) return noPrincipal(service, operation, token === undefined ? 'missing' : 'invalid');
  // A resolver that knows the credential already (a cache) answers synchronously: no asynchronous step.
  const resolved = policy.credential.resolve(token);
  if (resolved instanceof Promise)
    return resolved.then((principal) => principal || noPrincipal(service, operation, 'invalid'));
  return resolved || noPrincipal(service, operation, 'invalid');
}

/**
 * Without a valid credential: refused where the operation requires one (and,
 * for a service that refuses unknown credentials, wherever one was sent),
 * else the anonymous caller.
 */
function noPrincipal(service: ServiceDefinition, operation: ContractOperation, reason: 'missing' | 'invalid') {
  if (operation.security === 'required' || (reason === 'invalid' && service.unknownCredential === 'refuse')) {
    throw service.unauthenticated(reason);
  }
  return service.anonymous;
}

/**
 * Builds the parameter object the contract validates: path values decoded,
 * and the declared query parameters as `readQuery` reads them (the last
 * value of a repeated one, the platform's boolean spellings).
 * No text value may hold a NUL character: no API gives it a meaning, and
 * PostgreSQL refuses it in a query, so it is a 400 before any handler runs.
 */
function validateInput(
  ctx: Context,
  operation: ContractOperation,
  rawParams: Record<string, string>,
  parseBody: BodyParser,
) {
  const { path, query } = readParameters(ctx, operation, rawParams);
  // An operation without a body never reads one: whatever a client sends is discarded, never buffered, and
  // the answer waits until it has arrived (bounded by the server's request timeout). Answered before, with the
  // body still coming, the connection would close on unread bytes and the reset cut off a large answer (the
  // contract, a page of posts) on its way to the client.
  if (operation.body === 'none') {
    // A request whose headers announce no body (nearly every GET) has nothing to wait for, complete or not yet.
    if (ctx.req.complete || !announcesBody(ctx.req.headers)) return checkInput(ctx, operation, path, query, undefined);
    ctx.req.resume();
    // A client gone meanwhile ends the wait too (its answer goes nowhere).
    return new Promise<void>((resolve) => {
      ctx.req.once('end', resolve);
      ctx.req.once('close', resolve);
    }).then(() => checkInput(ctx, operation, path, query, undefined));
  }
  return readBody(ctx, operation, parseBody).then((body) => checkInput(ctx, operation, path, query, body));
}

/** Whether a request's headers say a body follows: a chunked one, or a length above 0. */
function announcesBody(headers: Context['req']['headers']): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** Path values decoded and the declared query parameters, as the validators expect them. */
function readParameters(ctx: Context, operation: ContractOperation, rawParams: Record<string, string>) {
  const path: Record<string, unknown> = {};
  for (const name in rawParams) {
    const raw = rawParams[name]!;
    try {
      // Most values hold no percent-encoding: nothing to decode.
      path[name] = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      throw invalidRequest(`Invalid parameter ${name}: malformed percent-encoding`);
    }
  }
  // An operation that declares no query parameter reads none: Koa's `ctx.query` would parse the query string for nothing.
  const query = operation.queryParams.size ? readQuery(ctx.query, operation.queryParams) : {};
  return { path, query };
}

/** Validates the request against the operation's compiled validators; an ApiError (400) names the first problem. */
function checkInput(
  ctx: Context,
  operation: ContractOperation,
  path: Record<string, unknown>,
  query: Record<string, unknown>,
  requestBody: unknown,
) {
  const parameters: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    header: unknown;
    requestBody?: unknown;
  } = { path, query, header: ctx.headers };
  if (requestBody !== undefined) parameters.requestBody = requestBody;
  for (const validate of operation.validateRequest) {
    if (validate(parameters)) continue;
    const error = validate.errors?.[0];
    const [, where, name] = /^\/(path|query|header|requestBody)\/?([^/]*)/.exec(error?.instancePath ?? '') ?? [];
    const missing =
      error?.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
    const message = error?.message ?? 'is invalid';
    const subject =
      where === 'requestBody'
        ? `body field ${name || missing || ''}`.trim()
        : where
          ? `${where === 'header' ? 'header' : 'parameter'} ${name}`
          : missing === 'requestBody'
            ? 'body'
            : `parameter ${missing ?? ''}`.trim();
    throw invalidRequest(`Invalid ${subject}: ${message}`);
  }
  for (const values of [path, query]) {
    for (const name in values) {
      if (nulAt(values[name], name) !== undefined)
        throw invalidRequest(`Invalid parameter ${name}: must not contain NUL characters`);
    }
  }
  const field = nulAt(requestBody, '');
  if (field !== undefined)
    throw invalidRequest(`Invalid body${field && ` field ${field}`}: must not contain NUL characters`);
  return { path: parameters.path, query: parameters.query, body: requestBody };
}

/** Where a NUL character is in a value (`where`, or `where.key` inside an object or array), if anywhere. */
function nulAt(value: unknown, where: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? where : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = where ? `${where}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulAt(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Largest JSON request body accepted (and the fields of a form). */
const BODY_LIMIT = '64kb';
const BODY_LIMIT_BYTES = 64 * 1024;

type BodyParser = ReturnType<typeof bodyParser>;

/**
 * `@koa/bodyparser` for JSON only (strict: an object or array at the top),
 * at most BODY_LIMIT, on the methods of the operations that declare a body.
 * The pipeline calls it only for those operations.
 */
function jsonBodyParser(operations: readonly ContractOperation[]): BodyParser {
  const parsedMethods = [...new Set(operations.filter((op) => op.body !== 'none').map((op) => op.method))];
  return bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, jsonStrict: true, parsedMethods });
}

/**
 * Reads a request body (its fields at most BODY_LIMIT): JSON, or a form or
 * multipart body where the operation declares one (`formBodies.ts`); 415
 * for another media type, 413 when too large, 400 when malformed or missing
 * but required.
 */
async function readBody(ctx: Context, operation: ContractOperation, parseBody: BodyParser): Promise<unknown> {
  if (!ctx.request.length && !ctx.get('transfer-encoding')) {
    if (operation.body === 'required') throw invalidRequest('Invalid body: a JSON body is required');
    return undefined;
  }
  if (ctx.is('application/json')) return readJsonBody(ctx, parseBody);
  if (operation.formBodies.size) {
    if (operation.formBodies.has('application/x-www-form-urlencoded') && ctx.is('application/x-www-form-urlencoded'))
      return readFormBody(ctx, BODY_LIMIT_BYTES);
    if (operation.formBodies.has('multipart/form-data') && ctx.is('multipart/form-data'))
      return readMultipartBody(ctx, BODY_LIMIT_BYTES);
    throw new ApiError(
      415,
      'unsupported_media_type',
      `The request body must be application/json, ${[...operation.formBodies].join(' or ')}`,
    );
  }
  throw new ApiError(415, 'unsupported_media_type', 'The request body must be application/json');
}

/** Reads a JSON request body (at most BODY_LIMIT): 413 when too large, 400 when malformed. */
async function readJsonBody(ctx: Context, parseBody: BodyParser): Promise<unknown> {
  let parsed = false;
  try {
    await parseBody(ctx, async () => {
      parsed = true;
    });
  } catch (error) {
    if ((error as { status?: number }).status === 413) {
      throw new ApiError(413, 'payload_too_large', `The request body is larger than ${BODY_LIMIT}`);
    }
    throw invalidRequest('Invalid body: malformed JSON');
  }
  // The parser stops without parsing when the client has already gone; nobody will read this answer.
  if (!parsed) throw invalidRequest('Invalid body: the request was closed');
  return ctx.request.body;
}

/**
 * An error as the service's answer: an ApiError as it is; a store that is
 * down or busy (see `isStoreUnavailable`) as 503 with `Retry-After`, logged
 * as a warning; anything else as a 500, logged with its cause.
 */
function toErrorAnswer(service: ServiceDefinition, error: unknown, ctx: Context, options: PipelineOptions): Outgoing {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (isStoreUnavailable(error)) {
    apiError = serviceUnavailable(options.storeRetryAfterSeconds ?? 1);
    options.logger.warn({ err: error, requestId: ctx.state.requestId, service: service.name }, 'store unavailable');
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
function checkResponse(
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
  // An absent body is JSON null to the validators (openapi-backend checks a content-less 204 against `type: null`).
  else if (validate && !validate(outgoing.body ?? null)) problem = describeErrors(validate.errors ?? []);
  if (!problem) return outgoing;
  options.logger.error(
    { requestId: ctx.state.requestId, operationId: operation.operationId, status: outgoing.status, problem },
    'response does not match the contract',
  );
  if (options.responseValidation !== 'strict') return outgoing;
  const error = internalError();
  return { status: 500, body: service.errorBody(error), headers: {}, isError: true };
}

/**
 * Validates the headers of an answer already written against what the
 * operation declares for its status (required ones present, each valid).
 * In `strict` mode a violation turns the answer into a 500, with only the
 * headers it had before the presenter ran; in `log` mode it is logged.
 */
function checkResponseHeaders(
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
 * `fields`, `meta` links or items). Images are not capped here.
 */
function presentWithinCap(
  ctx: Context,
  present: Presenter,
  service: ServiceDefinition,
  outgoing: Outgoing,
  options: PipelineOptions,
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
