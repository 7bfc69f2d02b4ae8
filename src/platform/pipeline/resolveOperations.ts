import type { Context } from 'koa';
import type { ContractOperation, SecurityScheme } from '../contract/types.js';
import {
  writeJson,
  writeText,
  type AdmitStep,
  type AnyHandler,
  type CredentialResolver,
  type Outgoing,
  type Presenter,
  type ServiceDefinition,
} from './service.js';
import { setHeaders } from '../answers/headers.js';
import { notImplemented } from '../answers/errors.js';

/**
 * Reads the credential of a scheme from a request: the credential, `''`
 * when one was sent but cannot be one (a malformed `Authorization`), or
 * undefined when none was sent.
 */
type CredentialReader = (ctx: Context) => string | undefined;

/** How one operation is served, resolved once when the pipeline is built (nothing of it is made per request). */
export interface ResolvedOperation {
  /** The scheme's reader and resolver; undefined for an operation without security (`security: []`). */
  credential: { read: CredentialReader; resolve: CredentialResolver<unknown> } | undefined;
  admit: AdmitStep | undefined;
  /** The limit steps among `admit`, which also count a request refused by security (401), as the anonymous caller. */
  limits: AdmitStep | undefined;
  /** The operation's handler from the service's map (one that throws 501 where the map has none). */
  handler: AnyHandler;
  present: Presenter;
}

/** The handler of an operation the service's map lacks (a definition the type check did not see). */
const NOT_IMPLEMENTED: AnyHandler = () => {
  throw notImplemented();
};

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/** `Authorization: Bearer <token>`: the token; `''` for another `Authorization`; undefined without one. */
const bearerToken: CredentialReader = (ctx) => {
  const header = ctx.req.headers.authorization;
  return header ? (BEARER.exec(header)?.[1] ?? '') : undefined;
};

/** Where a scheme's credential is read from: a bearer token (an OAuth 2 access token too), or an API key in a header or cookie. */
function credentialReader(service: string, name: string, scheme: SecurityScheme): CredentialReader {
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return bearerToken;
  // An OAuth 2 access token is a bearer token (RFC 6750).
  if (scheme.type === 'oauth2') return bearerToken;
  if (scheme.type === 'apiKey' && scheme.name && scheme.in === 'cookie') {
    const cookie = scheme.name;
    // The same cookie as a browser keeps it over HTTPS, `__Host-` prefixed (for this host only, never set over HTTP).
    const hostOnly = `__Host-${cookie}`;
    return (ctx) => ctx.cookies.get(hostOnly) || ctx.cookies.get(cookie) || undefined;
  }
  if (scheme.type === 'apiKey' && scheme.name && scheme.in === 'header') {
    const header = scheme.name;
    return (ctx) => ctx.get(header) || undefined;
  }
  throw new Error(
    `${service}: security scheme ${name} (${scheme.type} ${scheme.scheme ?? scheme.in ?? ''}) is not supported`,
  );
}

/** The default presenter: the status, headers and a JSON (or plain-text) body. */
export const presentJson: Presenter = (ctx, outgoing: Outgoing) => {
  ctx.status = outgoing.status;
  setHeaders(ctx, outgoing.headers);
  if (outgoing.text !== undefined) writeText(ctx, outgoing.text);
  else if (outgoing.body !== undefined) writeJson(ctx, outgoing.body);
};

/** Several admit steps as one, run in order (each awaited only when it returns a promise). */
function inOrder(steps: readonly AdmitStep[]): AdmitStep | undefined {
  if (steps.length <= 1) return steps[0];
  return async (ctx, principal) => {
    for (const step of steps) await step(ctx, principal);
  };
}

/**
 * Resolves the policy of every operation of a service, once: its security
 * scheme's reader and resolver, its admit steps, its handler, its presenter
 * (so a request looks nothing up by operationId). Throws,
 * naming the service, when the module's security resolvers and policy table
 * do not match the contract (a scheme without a resolver, a resolver or a
 * policy for something the contract does not have): the app does not start.
 */
export function resolveOperations(service: ServiceDefinition): Map<ContractOperation, ResolvedOperation> {
  const { contract } = service;
  const schemes = Object.keys(contract.securitySchemes);
  const resolvers = Object.keys(service.security);
  const missing = schemes.filter((name) => !resolvers.includes(name));
  const extra = resolvers.filter((name) => !schemes.includes(name));
  if (missing.length || extra.length) {
    throw new Error(
      `${service.name}: the security resolvers must be one per security scheme of the contract (${schemes.join(', ') || 'none'})` +
        `${missing.length ? `; missing: ${missing.join(', ')}` : ''}${extra.length ? `; unknown: ${extra.join(', ')}` : ''}`,
    );
  }
  const policies = service.policies ?? {};
  const unknown = Object.keys(policies).filter((id) => !contract.byOperationId.has(id));
  if (unknown.length)
    throw new Error(`${service.name}: policies for operations the contract does not have: ${unknown.join(', ')}`);

  const fallback = service.present ?? presentJson;
  const readers = new Map(
    schemes.map((name) => [name, credentialReader(service.name, name, contract.securitySchemes[name]!)]),
  );
  const resolved = new Map<ContractOperation, ResolvedOperation>();
  for (const operation of contract.operations) {
    const policy = policies[operation.operationId] ?? {};
    // One scheme per operation is what the pipeline serves; alternatives would silently become the first.
    if (operation.securitySchemes.length > 1) {
      throw new Error(
        `${service.name}: operation ${operation.operationId} names several security schemes (${operation.securitySchemes.join(', ')}); ` +
          'the pipeline reads one credential per operation: name one scheme, or split the operation',
      );
    }
    const scheme = operation.security === 'none' ? undefined : operation.securitySchemes[0];
    const admit =
      policy.admit === undefined ? [] : Array.isArray(policy.admit) ? policy.admit : [policy.admit as AdmitStep];
    resolved.set(operation, {
      credential: scheme ? { read: readers.get(scheme)!, resolve: service.security[scheme]! } : undefined,
      admit: inOrder(admit as readonly AdmitStep[]),
      limits: inOrder((admit as readonly AdmitStep[]).filter((step) => 'limits' in step)),
      handler: service.handlers[operation.operationId] ?? NOT_IMPLEMENTED,
      present: policy.present ?? fallback,
    });
  }
  return resolved;
}
