import type { Context } from 'koa';
import type { Contract } from '../contract/types.js';
import type { ApiError } from '../answers/errors.js';
import type { HandlerMap, OperationMap, PolicyHeaders, PolicyTable } from './handlerTypes.js';
import { EncodedJson } from '../answers/encodedJson.js';
import { setHeader, type AnswerContext } from '../answers/headers.js';
import type { OperationPolicy, Outgoing, Presenter } from './operationPolicy.js';

export type { AdmitStep, OperationPolicy, Outgoing, PresentedOperation, Presenter } from './operationPolicy.js';

/**
 * Whether a request path belongs to a service: the prefix itself or a path
 * under it (`/v3`, `/v3/…`, never `/v3x`). Built once per prefix, since it
 * runs on every request.
 */
export function underPrefix(prefix: string): (path: string) => boolean {
  const under = `${prefix}/`;
  return (path) => path === prefix || path.startsWith(under);
}

/**
 * Writes `body` as a JSON answer (an encoded one as its bytes). As bytes, not text: Koa would measure a
 * text body's UTF-8 length and Node encode it again on every answer.
 */
export function writeJson(ctx: Pick<AnswerContext, 'res' | 'body'>, body: unknown): void {
  setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
  ctx.body = body instanceof EncodedJson ? body.bytes : Buffer.from(JSON.stringify(body));
}

/** Whether a request path belongs to a service: under its prefix or one of its other prefixes. */
export function ownedBy(service: Pick<ServiceDefinition, 'prefix' | 'otherPrefixes'>): (path: string) => boolean {
  const checks = [service.prefix, ...(service.otherPrefixes ?? [])].map(underPrefix);
  if (checks.length === 1) return checks[0]!;
  // A loop, not `checks.some(...)`: no closure made per request (profiles' CORS step asks on every request).
  return (path) => {
    for (const owns of checks) if (owns(path)) return true;
    return false;
  };
}

/** Writes a plain-text answer (`text/plain`), as bytes; an empty one has `Content-Length: 0`. */
export function writeText(ctx: Pick<AnswerContext, 'res' | 'body'>, text: string): void {
  setHeader(ctx, 'Content-Type', 'text/plain; charset=utf-8');
  ctx.body = Buffer.from(text);
}

/** A request that no operation of the contract takes: an unknown path, or a known one under another method. */
export type RouteMiss = { kind: 'not-found' } | { kind: 'method-not-allowed'; allow: string[] };

/** A handler as the pipeline calls it (the typed maps in handlers.ts narrow this). */
export type AnyHandler = (input: {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  /** The Koa context, for the rare handler that must touch it (cookies); most never do. */
  ctx?: Context;
  headers: Record<string, string | string[] | undefined>;
  principal: unknown;
  requestId: string;
}) => HandlerAnswer | Promise<HandlerAnswer>;

/** What a handler answers (synchronously when it has nothing to wait for). */
export type HandlerAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * Everything the shared HTTP machinery needs to know about one service. The
 * machinery itself knows nothing of profiles or posts. A module writes it
 * typed by its contract's operations (`Ops`, from `generated/<service>/contract.gen.ts`)
 * and the headers its policies write (`W`): a handler or policy missing for
 * an operation, or named for none, fails the type check. Without `Ops` it is
 * the definition as the pipeline holds every service (see `servedDefinition`).
 */
export type ServiceDefinition<
  Principal = unknown,
  Ops extends OperationMap<Ops> = never,
  W extends PolicyHeaders<Ops> = {},
> = ServiceParts<Principal> &
  ([Ops] extends [never]
    ? {
        handlers: Readonly<Record<string, AnyHandler>>;
        policies?: Readonly<Record<string, OperationPolicy<Principal>>>;
      }
    : {
        /** One handler per operation of the contract. */
        handlers: HandlerMap<Ops, Principal, W>;
        /**
         * The policy of each operation (admit steps, presenter). Resolved once
         * per operation when the pipeline is built; an operation without one
         * has the defaults.
         */
        policies: PolicyTable<Ops, Principal, W>;
      });

/**
 * A module's typed definition as the pipeline holds it: handlers and
 * policies by operationId, the caller unknown. The one place the types are
 * let go: the pipeline calls a handler only with input the operation's
 * validators accepted and a caller the service's own resolvers gave, which
 * is what the generated types describe. Nothing is copied.
 */
export function servedDefinition<Principal, Ops extends OperationMap<Ops>, W extends PolicyHeaders<Ops>>(
  definition: ServiceDefinition<Principal, Ops, W>,
): ServiceDefinition {
  return definition as unknown as ServiceDefinition;
}

/** What a service definition holds besides its handlers and policies. */
interface ServiceParts<Principal> {
  name: string;
  /** Path prefix of the contract's server URL, e.g. `/v3`. */
  prefix: string;
  /**
   * Further prefixes the service answers under: those of operations that
   * declare a server of their own in the contract (the profiles service's
   * avatar images under `/avatar`).
   */
  otherPrefixes?: readonly string[];
  contract: Contract;
  ignoreTrailingSlash?: boolean;
  /** The caller when no valid credential was given. */
  anonymous: Principal;
  /**
   * One resolver per security scheme of the contract, keyed by the scheme's
   * name (`components.securitySchemes`): the credential the scheme carries
   * (a bearer token, a cookie) to the caller, or null when it is unknown or
   * revoked. The platform reads the credential where the scheme says; the
   * app refuses to start when a scheme has no resolver or a resolver no scheme.
   */
  security: Readonly<Record<string, CredentialResolver<Principal>>>;
  /** The error for an operation that requires a credential when it is missing or unknown. */
  unauthenticated(reason: 'missing' | 'invalid'): ApiError;
  /**
   * What an unknown credential means where the operation does not require
   * one: the anonymous caller (the default), or `unauthenticated('invalid')`.
   */
  unknownCredential?: 'anonymous' | 'refuse';
  /**
   * The service's answer to a request under its prefixes that no operation
   * takes (publishing: `OPTIONS` on any path, its empty 404 and its 405); by
   * default 404 `not_found` or 405 with `Allow`, in the service's error body.
   */
  onRouteMiss?(ctx: Context, miss: RouteMiss): Outgoing;
  /** The service's error body for an error. */
  errorBody(error: ApiError): unknown;
  /** Writes an answer that no operation's policy writes (unrouted paths, an operation without a presenter); the default writes JSON. */
  present?: Presenter;
}

/** Resolves the credential of one security scheme to the caller; null when it is unknown or revoked. */
export type CredentialResolver<Principal> = (credential: string) => Principal | null | Promise<Principal | null>;
