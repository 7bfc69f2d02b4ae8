import type { Context, Middleware } from 'koa';
import type { ContractOperation } from '../contract/types.js';
import { callerOf, readFloor, type ReadYourWrites } from '../store/readYourWrites.js';
import { ApiError, methodNotAllowed, routeNotFound } from '../answers/errors.js';
import {
  checkResponse,
  checkResponseHeaders,
  presentWithinCap,
  toErrorAnswer,
  type AnswerOptions,
} from './answerChecks.js';
import { jsonBodyParser, validateInput, type BodyParser } from './requestInput.js';
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

export interface PipelineOptions extends AnswerOptions {
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
 * internal in it, logged once with its cause. The input steps are in
 * `requestInput.ts`, the answer's checks in `answerChecks.ts`.
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
