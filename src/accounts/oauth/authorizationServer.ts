import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import type { Logger } from 'pino';
import { ApiError } from '../../platform/answers/errors.js';
import { setHeaders } from '../../platform/answers/headers.js';
import { underPrefix } from '../../platform/pipeline/service.js';
import type { ScopedHook } from '../../platform/pipeline/hooks.js';
import { rateLimits, type LimitDeclaration } from '../../platform/security/limits.js';
import { isStoreUnavailable } from '../../platform/store/unavailable.js';
import { kyselyOAuthAdapter } from './adapter.js';
import { grantSite } from './grants.js';
import { authorizationServerSecrets } from './secrets.js';
import { configuration } from './configuration.js';
import type { AuthorizationServerOptions, OAuthLimits } from './options.js';

export type { AuthorizationServerOptions, OAuthLimits } from './options.js';

/** Where the authorization server answers: the issuer's path. */
export const OAUTH_PREFIX = '/oauth2';

/**
 * Requests per hour to the authorization server per client address, and those naming one application per
 * application and client address: the defaults of `RATE_LIMIT_OAUTH` and `RATE_LIMIT_OAUTH_APPLICATION`.
 */
export const OAUTH_LIMITS: OAuthLimits = { perAddress: 300, perApplication: 100, windowSeconds: 3600 };

export interface AuthorizationServer {
  /** oidc-provider, once the shared secrets are read (the first request waits for it). */
  provider(): Promise<Provider>;
  /**
   * Serves `/oauth2/*` and `/.well-known/oauth-authorization-server/oauth2` (RFC 8414), counted per client address
   * and per application: a hook scoped to those paths (the module's `onRequest`).
   */
  hook: ScopedHook;
}

/**
 * The OAuth 2 authorization server: oidc-provider (authorization code with
 * PKCE S256 required, exact redirect URIs, single-use codes, rotating
 * refresh tokens with reuse detection, RFC 7009 revocation, RFC 8414
 * metadata) on the project's store. Applications are public clients; the
 * person logs in and consents on the dashboard, which finishes the
 * interaction (`consent.ts`).
 */
export function authorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const issuer = new URL(OAUTH_PREFIX, options.publicUrl).href;
  const issuerOrigin = new URL(issuer);
  const limits = rateLimits({
    shared: options.redis ? { redis: options.redis.client, keyPrefix: options.redis.keyPrefix } : undefined,
    refuse: (headers) => new ApiError(429, 'rate_limited', 'Too many requests from this address', headers),
  });
  const declared = oauthLimitDeclarations(options.limits ?? OAUTH_LIMITS);
  const perApplication = limits.limit(declared.perApplication);
  // Made when the library is loaded: an error the provider answers as 429 `rate_limited`.
  let rateLimited: (() => Error) | undefined;
  // Made when the library is loaded: an error the provider answers as 503 `temporarily_unavailable`.
  let storeUnavailable: (() => Error) | undefined;
  const retryAfter = String(options.storeRetryAfterSeconds ?? 1);
  const adapter = storeOutageAnswered(
    options.logger,
    () => storeUnavailable,
    retryAfter,
    kyselyOAuthAdapter(
      options.db,
      async (clientId: string) => {
        try {
          // Per application and client address: junk naming an app's client_id (anyone can) spends only the sender's share,
          // never the app's budget for everyone; an app's real traffic comes from its many users' addresses.
          const taken = perApplication.take(`${clientId} ${clientAddress.getStore() ?? ''}`);
          if (taken instanceof Promise) await taken;
        } catch (error) {
          if (!(error instanceof ApiError) || !rateLimited) throw error;
          // The library writes the answer: the refusal's rate-limit headers and Retry-After go on the response it is writing.
          const response = answering.getStore();
          if (response && !response.headersSent)
            for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
          throw rateLimited();
        }
      },
      () => options.onRevoked?.(),
    ),
  );
  let built: Promise<Provider> | undefined;
  // The library is loaded with the first OAuth request, not with every process that builds the app (the admin command line).
  const provider = () =>
    (built ??= Promise.all([import('oidc-provider'), authorizationServerSecrets(options.db)]).then(
      ([library, { cookieKey, signingKey }]) => {
        const { OIDCProviderError } = library.errors;
        rateLimited = () =>
          new OIDCProviderError(429, 'rate_limited', { detail: 'Too many requests for this application' });
        // Answered here, never redirected to the app: the 503 carries `Retry-After` for whoever sent the request.
        storeUnavailable = () =>
          Object.assign(new OIDCProviderError(503, 'temporarily_unavailable'), {
            error_description: STORE_UNAVAILABLE,
            allow_redirect: false,
            expose: true,
          });
        const server = new library.default(
          issuer,
          configuration(
            options,
            cookieKey,
            signingKey,
            adapter,
            (description) => new library.errors.InvalidRequest(description),
          ),
        );
        // Every URL the library builds (the metadata's endpoints, redirects, the resume address) has the issuer's origin,
        // never the request's Host: the forwarded headers it reads are written by `servedAtIssuer`, not by the caller.
        server.proxy = true;
        server.on('server_error', (_ctx: unknown, error: Error) =>
          options.logger.error({ err: error }, 'authorization server error'),
        );
        server.use(async (ctx, next) => {
          await next();
          const body = ctx.body as Record<string, unknown> | undefined;
          if (ctx.status !== 200 || !body || typeof body !== 'object') return;
          // The revocation endpoint takes public clients as the token endpoint does (RFC 8414's default would be a secret).
          if (ctx.oidc?.route === 'discovery') body.revocation_endpoint_auth_methods_supported = ['none'];
          if (ctx.oidc?.route === 'token' && typeof body.access_token === 'string') {
            // The token response names the site, as the real platform's does (`blog_id`, `blog_url`), on a refresh too.
            const grantId = (await ctx.oidc.provider.AccessToken.find(body.access_token))?.grantId;
            const site = grantId ? await grantSite(options.db, options.sites, grantId) : undefined;
            if (site) Object.assign(body, site);
            const grant = ctx.oidc.entities.Grant;
            if (options.tokenResponse && grant?.accountId) {
              Object.assign(
                body,
                await options.tokenResponse({
                  accountId: grant.accountId,
                  clientId: grant.clientId,
                  grantId: grant.jti,
                }),
              );
            }
          }
        });
        return server;
      },
    )).catch((error: unknown) => {
      built = undefined;
      throw error;
    });
  const perAddress = limits.step(declared.perAddress);
  const owns = underPrefix(OAUTH_PREFIX);
  const metadataPath = `/.well-known/oauth-authorization-server${OAUTH_PREFIX}`;
  let served: ReturnType<Provider['callback']> | undefined;
  // The app runs this step for paths under the two prefixes only; under the metadata path, that path alone is served.
  const middleware: Middleware = (ctx, next) => {
    const path = ctx.path;
    const metadata = path === metadataPath;
    return metadata || owns(path) ? serve(ctx, path, metadata) : next();
  };
  const serve = async (ctx: Context, path: string, metadata: boolean) => {
    // Named for the access log and the request metrics, which observe every request (this one included).
    ctx.state.service = 'oauth';
    ctx.state.operationId = oauthOperation(ctx.method, path);
    // Every request to the authorization server counts against the client address (the metadata and keys too: the
    // app's other limit does not reach them, since they are answered here); those naming an app, against it too.
    try {
      const limited = perAddress(ctx, undefined);
      if (limited) await limited;
    } catch (error) {
      if (error instanceof ApiError)
        return answerError(ctx, error.status, 'rate_limited', error.message, error.headers);
      throw error;
    }
    let server: Provider;
    try {
      server = await provider();
    } catch (error) {
      // The shared secrets are read from the store with the first request.
      if (!isStoreUnavailable(error)) throw error;
      options.logger.warn({ err: error }, 'store unavailable');
      return answerError(ctx, 503, 'temporarily_unavailable', STORE_UNAVAILABLE, { 'Retry-After': retryAfter });
    }
    // The provider is a Koa app of its own (its cookie keys, its context), handed the request under its mount path.
    const original = ctx.req.url!;
    const rest = original.slice(metadata ? 0 : OAUTH_PREFIX.length);
    Object.assign(ctx.req, {
      originalUrl: original,
      baseUrl: OAUTH_PREFIX,
      url: metadata ? `/.well-known/oauth-authorization-server${original.slice(path.length)}` : rest || '/',
    });
    if (metadata || path === `${OAUTH_PREFIX}/.well-known/openid-configuration`)
      ctx.res.setHeader('Cache-Control', METADATA_CACHE);
    ctx.respond = false;
    try {
      await clientAddress.run(ctx.ip, () =>
        answering.run(ctx.res, () =>
          servedAtIssuer(ctx, issuerOrigin, () => (served ??= server.callback())(ctx.req, ctx.res)),
        ),
      );
    } finally {
      // The access log names the path the request reached, not the library's.
      ctx.req.url = original;
    }
  };
  return { provider, hook: { prefixes: [OAUTH_PREFIX, metadataPath], run: middleware } };
}

/**
 * The authorization server's limits: every request per client address
 * (`oauth`), and the requests that name an application (authorization,
 * token, revocation) per application (`oauth-application`).
 */
export function oauthLimitDeclarations(budgets: OAuthLimits) {
  return {
    perAddress: { name: 'oauth', per: 'address', points: budgets.perAddress, windowSeconds: budgets.windowSeconds },
    perApplication: {
      name: 'oauth-application',
      per: 'application',
      points: budgets.perApplication,
      windowSeconds: budgets.windowSeconds,
    },
  } satisfies Record<string, LimitDeclaration>;
}

/** The contract's operationId (`openapi/oauth.yaml`) of a request to the authorization server, or `none`. */
function oauthOperation(method: string, path: string): string {
  const rest = path.startsWith(OAUTH_PREFIX) ? path.slice(OAUTH_PREFIX.length) : path;
  if (path.startsWith('/.well-known/')) return 'getAuthorizationServerMetadata';
  if (rest === '/.well-known/openid-configuration') return 'getOpenIdConfiguration';
  if (rest === '/jwks') return 'getJsonWebKeySet';
  if (rest === '/authorize') return 'authorize';
  if (rest.startsWith('/authorize/')) return 'resumeAuthorization';
  if (rest === '/token') return 'requestToken';
  if (rest === '/revoke') return 'revokeToken';
  if (rest === '/userinfo') return method === 'POST' ? 'postUserInfo' : 'getUserInfo';
  return 'none';
}

/** The metadata changes only with a new deployment: caches may keep it an hour. */
const METADATA_CACHE = 'public, max-age=3600';

/**
 * Runs the library on a request as if it had reached the issuer's origin:
 * its `Host`, scheme and client address are the forwarded headers it reads
 * (its Koa app trusts them), written here from `PUBLIC_URL` and from the
 * client address the app resolved (`TRUST_PROXY`), and put back after.
 */
async function servedAtIssuer(ctx: Context, issuer: URL, serve: () => Promise<unknown> | unknown): Promise<void> {
  const headers = ctx.req.headers;
  const names = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for'] as const;
  const kept = names.map((name) => headers[name]);
  headers['x-forwarded-host'] = issuer.host;
  headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
  headers['x-forwarded-for'] = ctx.ip;
  try {
    await serve();
  } finally {
    names.forEach((name, at) => {
      if (kept[at] === undefined) delete headers[name];
      else headers[name] = kept[at];
    });
  }
}

const STORE_UNAVAILABLE = 'The service is temporarily unavailable; try again shortly';

/**
 * The adapter, with the store's unavailable error (see `isStoreUnavailable`)
 * turned into the library's 503 `temporarily_unavailable` (RFC 6749's code)
 * with `Retry-After` on the response it is writing, as the app's pipeline
 * answers it; the library would answer any other thrown error as its 500.
 */
function storeOutageAnswered(
  logger: Logger,
  unavailable: () => (() => Error) | undefined,
  retryAfter: string,
  adapter: (model: string) => Adapter,
): (model: string) => Adapter {
  return (model) => {
    const inner = adapter(model);
    const wrapped = {} as Record<string, unknown>;
    for (const [name, method] of Object.entries(inner) as [string, (...args: unknown[]) => unknown][]) {
      wrapped[name] = async (...args: unknown[]) => {
        try {
          return await method.apply(inner, args);
        } catch (error) {
          const answer = unavailable();
          if (!answer || !isStoreUnavailable(error)) throw error;
          logger.warn({ err: error, model }, 'store unavailable');
          const response = answering.getStore();
          if (response && !response.headersSent) response.setHeader('Retry-After', retryAfter);
          throw answer();
        }
      };
    }
    return wrapped as unknown as Adapter;
  };
}

/** The response the library is writing, for the per-application limit's headers (the adapter is called without a context). */
const answering = new AsyncLocalStorage<ServerResponse>();

/** The client address of the request the library is answering (as the app resolved it, `TRUST_PROXY`), for the per-application limit. */
const clientAddress = new AsyncLocalStorage<string>();

/** An OAuth error answer (RFC 6749 §5.2): `{"error", "error_description"}`, never cached. */
function answerError(
  ctx: Context,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  setHeaders(ctx, { ...headers, 'Cache-Control': 'no-store' });
  ctx.status = status;
  ctx.body = { error, error_description: description };
}
