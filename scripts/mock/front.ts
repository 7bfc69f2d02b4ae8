/**
 * The layer `npm run mock` puts in front of Prism (scripts/mock.mjs runs it,
 * bundled by scripts/build-mock.ts into `dist/mock/front.mjs`): what the
 * server answers as a function of the request and the contract's examples,
 * which Prism cannot know. By the server's own code where it can be shared:
 * publishing's presenter (`fields`, `http_envelope`, `pretty`, `callback`,
 * its CORS), profiles' CORS settings and `Cache-Control`, the services'
 * settings read from the same environment variables.
 *
 * - CORS as the server does it: profiles and avatars for any origin,
 *   publishing for `PUBLISHING_CORS_ORIGINS` (none by default), the
 *   developer API for none. `MOCK_CORS=open` answers every origin, with
 *   credentials (local work on a front end at another origin; off by default).
 * - `X-Request-Id` (a well-formed incoming one kept), live rate-limit
 *   figures (the limit of the settings, one request used, the window's end
 *   from now; `0` left on a `429`), a keyed profile's `private, no-store`.
 * - `If-None-Match` matching the answer's `ETag` gives `304` on an
 *   operation that declares it.
 * - An avatar at the size asked (`s`, `size`), from the example image; a
 *   verified-account service's icon, the server's own drawing (`404` for a
 *   name no service has).
 * - A path no operation serves answers the API's own `404`; a preflight to
 *   an API without CORS, its `405`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { QueryParameterSpec } from '../../src/platform/contract/types.js';
import type { AnswerContext } from '../../src/platform/answers/headers.js';
import type { Outgoing, PresentedOperation } from '../../src/platform/pipeline/operationPolicy.js';
import { PROFILES_CORS } from '../../src/services/profiles/http/cors.js';
import { profileCacheControl } from '../../src/services/profiles/http/cachePolicy.js';
import { serviceIcon } from '../../src/services/profiles/http/serviceIcons.js';
import { iconNotFound, profilesErrorBody } from '../../src/services/profiles/errors.js';
import { invalidRequest, messageAndCodeBody } from '../../src/platform/answers/errors.js';
import { publishingErrorBody } from '../../src/services/publishing/errors.js';
import { CONTRACT_DOWNLOADS_PER_HOUR, profilesSettingsFromEnv } from '../../src/services/profiles/settings.js';
import { developerSettingsFromEnv } from '../../src/services/developer/settings.js';
import { publishingPresenter } from '../../src/services/publishing/http/present.js';
import { publishingSettingsFromEnv } from '../../src/services/publishing/settings.js';
import { pageOfPosts } from './pages.js';

/** One path as the front layer sees it (written by scripts/build-mock.ts into `layer.json`). */
export interface MockPath {
  /** The contract (service) it belongs to. */
  service: string;
  /** The path template as a regular expression's source, e.g. `^/v3/profiles/[^/]+$`. */
  pattern: string;
  /** The positions (in the path split at `/`) of its integer path parameters. */
  integerSegments: number[];
  /** Each path parameter's position (in the path split at `/`) and name. */
  pathParameters: [number, string][];
  endpointLayer: { acceptsTrailingSlash?: boolean; answersOptions?: boolean } | undefined;
  /** The file of its `200` `image/png` example (`externalValue`), relative to the project root. */
  png?: string;
  /**
   * Per method (upper case): the query parameters its operation declares (how each is read, as
   * `ContractOperation.queryParams`), its statuses, and for a post list (it declares `page_handle`)
   * the default of its `number`.
   */
  methods: Record<
    string,
    { query: Record<string, QueryParameterSpec>; statuses: string[]; pages?: { defaultNumber: number } }
  >;
}

/** One contract as the front layer sees it: the path prefixes it serves (its servers'), its endpoint layer. */
export interface MockService {
  name: string;
  prefixes: string[];
  endpointLayer: MockPath['endpointLayer'];
}

/** `layer.json`. */
export interface MockLayer {
  paths: MockPath[];
  services: MockService[];
  /** The origins of the contracts' servers (their variables' defaults): the examples' links are written at them. */
  origins: string[];
}

export interface FrontOptions {
  projectRoot: string;
  layer: MockLayer;
  /** Prism's own server, on a loopback port. */
  prism: URL;
  /** The mock's own origin (`http://127.0.0.1:4010`): the examples' links and images are answered at it, as the server's are at its `PUBLIC_URL`. */
  origin: string;
  env: NodeJS.ProcessEnv;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const NOT_FOUND = JSON.stringify({ error: 'Not found', code: 'not_found' });
const METHOD_NOT_ALLOWED = JSON.stringify({ error: 'Method not allowed', code: 'method_not_allowed' });
/** Which answers each service's presenter marks `Cache-Control: no-store`, by status. */
const NO_STORE: Record<string, (status: number) => boolean> = {
  profiles: (status) => status >= 400,
  developer: () => true,
};
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * The context publishing's presenter writes an answer through (what the
 * server's Koa context is to it): it reads the request and writes status,
 * headers and body, collected here.
 */
class PresenterContext implements AnswerContext {
  status = 200;
  body: unknown = Buffer.alloc(0);
  readonly headers = new Map<string, string>();
  /** What the server's earlier middleware notes on a request (an OAuth app's origin): the mock keeps no apps, so nothing. */
  readonly state: Record<string, unknown> = {};
  /** The request as the presenter reads it straight from Node's (its headers). */
  readonly req: { readonly headers: IncomingMessage['headers'] };
  /** Node's response as the presenter writes headers straight to it (`platform/answers/headers.ts`): into `headers`. */
  readonly res: {
    readonly headersSent: false;
    getHeader(name: string): string | undefined;
    setHeader(name: string, value: string | number | readonly string[]): void;
  };
  constructor(
    readonly method: string,
    readonly query: Record<string, string | string[]>,
    incoming: IncomingMessage['headers'],
  ) {
    this.req = { headers: incoming };
    const headers = this.headers;
    const named = (name: string) => [...headers.keys()].find((key) => key.toLowerCase() === name.toLowerCase());
    this.res = {
      headersSent: false,
      getHeader: (name) => {
        const key = named(name);
        return key === undefined ? undefined : headers.get(key);
      },
      setHeader: (name, value) => {
        const key = named(name);
        if (key !== undefined) headers.delete(key);
        headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      },
    };
  }

  /** The body the presenter wrote: always bytes (JSON, JSONP or text). */
  bytes(): Buffer {
    if (Buffer.isBuffer(this.body)) return this.body;
    throw new Error(`the presenter wrote a ${typeof this.body} body, not bytes`);
  }
}

/** The query as Koa parses it (a repeated name gives an array). */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const before = query[name];
    query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return query;
}

/** A header name as the contracts write it (`x-ratelimit-limit` is `X-RateLimit-Limit`). */
function headerName(name: string): string {
  const words: Record<string, string> = { ratelimit: 'RateLimit', etag: 'ETag', id: 'Id' };
  return name
    .split('-')
    .map((word) => words[word] ?? `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('-');
}

/**
 * A `400` example whose message has the server's form (`Invalid parameter
 * <name>: <what>`) rewritten to name the parameter Prism found wrong
 * (`sl-violations`), as the server names it.
 */
function namedParameterError(body: Buffer, violations: string): string {
  const text = body.toString('utf8');
  try {
    const error = JSON.parse(text) as Record<string, unknown>;
    const [first] = JSON.parse(violations) as { location?: string[]; message?: string }[];
    const name = first?.location?.at(-1);
    if (typeof error.error !== 'string' || !error.error.startsWith('Invalid parameter ') || !name || !first?.message)
      return text;
    const what = first.message.replace(/^Request (?:query|path|header|cookie) parameter \S+ /, '');
    return JSON.stringify({ ...error, error: `Invalid parameter ${name}: ${what}` });
  } catch {
    return text;
  }
}

/** A path segment with its escapes decoded, as the server reads a path parameter; undefined when an escape is malformed. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function createFront(options: FrontOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const env = options.env;
  const open = env.MOCK_CORS === 'open';
  // The mock's origin is its deployment's: avatar links at its `/avatar` (or `AVATAR_BASE_URL`), as the server's at its own.
  const profiles = profilesSettingsFromEnv(env, { publicUrl: options.origin }).profiles;
  const exampleOrigins = options.layer.origins.filter((origin) => origin !== options.origin);
  /**
   * A JSON answer's text with the examples' origin (the contracts' default,
   * `http://localhost:8080`) made the mock's own, so links and avatar images
   * resolve against the mock whatever port it runs on; a profile's avatar at
   * `AVATAR_BASE_URL` when it is set, as profiles' presenter writes it.
   */
  const atOwnOrigin = (text: string, service: string) => {
    let out = text;
    for (const origin of exampleOrigins) {
      if (service === 'profiles') out = out.replaceAll(`${origin}/avatar/`, `${profiles.avatarBaseUrl}/`);
      out = out.replaceAll(origin, options.origin);
    }
    return out;
  };
  const publishing = publishingSettingsFromEnv(env).publishing;
  const windowSeconds = profiles.rateLimits.windowSeconds;
  const developer = developerSettingsFromEnv(env).developer;
  /** The platform's limit of what no operation answers (preflights, unrouted paths): `RATE_LIMIT_OTHER`, as `src/platform/config.ts` reads it. */
  const otherPerHour = Number(env.RATE_LIMIT_OTHER ?? 1000);
  const otherLimitHeaders = (): Record<string, string> => ({
    'X-RateLimit-Limit': String(otherPerHour),
    'X-RateLimit-Remaining': String(Math.max(0, otherPerHour - 1)),
    'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + windowSeconds),
  });
  const paths = options.layer.paths.map((path) => ({
    ...path,
    regex: new RegExp(path.pattern),
    image: path.png ? readFileSync(join(options.projectRoot, path.png)) : undefined,
  }));
  const serviceOf = (pathname: string) =>
    options.layer.services.find((candidate) =>
      candidate.prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)),
    );
  let sharp: typeof import('sharp')['default'] | undefined;

  /** The limit the server's settings give an answer's rate-limit window, by service and caller; undefined keeps the example's. */
  function limitOf(service: string, pathname: string, keyed: boolean): number | undefined {
    if (service === 'profiles') {
      const limits = profiles.rateLimits;
      if (pathname.startsWith('/avatar/')) return limits.avatarsPerHour;
      if (pathname.startsWith('/icons/')) return limits.iconsPerHour;
      if (pathname.startsWith('/v3/qr-code/')) return limits.qrCodesPerHour;
      if (pathname === '/v3/openapi') return CONTRACT_DOWNLOADS_PER_HOUR;
      if (pathname === '/v3/verified-accounts/services') return limits.verifiedAccountServicesPerHour;
      // A keyed caller is held to the tightest of its key's, its account's and its address's limits; the answer names that one.
      return keyed
        ? Math.min(limits.keyedPerHour, limits.accountPerHour, limits.keyedPerClientPerHour)
        : limits.anonymousPerHour;
    }
    if (service === 'publishing') return publishing.rateLimits.readsPerHour;
    // The dashboard's calls that check a password or a link count against the log-in budget: their example's figure stays.
    if (service === 'developer') return developer.requestsPerHour;
    return undefined;
  }

  /** CORS headers for a service's answer (publishing's are its presenter's), and for the open mode. */
  function corsHeaders(req: IncomingMessage, service: string | undefined, preflight: boolean): Record<string, string> {
    const origin = req.headers.origin;
    if (open) {
      if (!origin) return {};
      return {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        Vary: 'Origin',
        ...(preflight
          ? {
              'Access-Control-Allow-Methods': String(req.headers['access-control-request-method'] ?? 'GET'),
              'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? ''),
              'Access-Control-Max-Age': '7200',
            }
          : { 'Access-Control-Expose-Headers': PROFILES_CORS.exposeHeaders.join(',') }),
      };
    }
    if (service !== 'profiles') return {};
    if (preflight) {
      return {
        Vary: 'Origin',
        ...(origin
          ? {
              'Access-Control-Allow-Origin': '*',
              'Access-Control-Allow-Methods': PROFILES_CORS.allowMethods.join(','),
              'Access-Control-Allow-Headers': PROFILES_CORS.allowHeaders.join(','),
              'Access-Control-Max-Age': String(PROFILES_CORS.maxAge),
            }
          : {}),
      };
    }
    return {
      Vary: 'Origin',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': PROFILES_CORS.exposeHeaders.join(','),
    };
  }

  /** Writes an answer: status, headers (with the request id and CORS), body. */
  function send(
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: Buffer | string,
    extra: Record<string, string>,
  ): void {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const merged: Record<string, string> = { ...headers };
    for (const [name, value] of Object.entries(extra)) {
      const key = Object.keys(merged).find((existing) => existing.toLowerCase() === name.toLowerCase()) ?? name;
      merged[key] =
        name.toLowerCase() === 'vary' && merged[key] && !merged[key].includes(value)
          ? `${merged[key]}, ${value}`
          : value;
    }
    res.writeHead(status, {
      ...merged,
      'X-Content-Type-Options': 'nosniff',
      ...(status === 304 ? {} : { 'Content-Length': String(bytes.length) }),
    });
    res.end(status === 304 || status === 204 ? undefined : bytes);
  }

  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const method = (req.method ?? 'GET').toUpperCase();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && SAFE_ID.test(incomingId) ? incomingId : randomUUID();
    let pathname = url.pathname;
    const byShape = (candidate: string) => paths.find((path) => path.regex.test(candidate));
    let known = byShape(pathname);
    if (!known && pathname.length > 1 && pathname.endsWith('/')) {
      const trimmed = pathname.replace(/\/+$/, '');
      const candidate = byShape(trimmed);
      if (candidate?.endpointLayer?.acceptsTrailingSlash) {
        known = candidate;
        pathname = trimmed;
      }
    }
    const owner = serviceOf(pathname);
    const service = known?.service ?? owner?.name;
    const preflight = method === 'OPTIONS' && Boolean(req.headers['access-control-request-method']);
    const presentsPublishing = service === 'publishing';
    const operation = known?.methods[method === 'HEAD' ? 'GET' : method];
    const present = (answer: Outgoing, outer: Record<string, string> = {}) => {
      const ctx = new PresenterContext(method, queryOf(url), req.headers);
      // The presenter reads only the answering operation's declared query parameters.
      const declared: PresentedOperation | undefined = operation
        ? { queryParams: new Map(Object.entries(operation.query)) }
        : undefined;
      publishingPresenter(open ? '*' : publishing.corsOrigins)(ctx, answer, declared);
      send(res, ctx.status, { ...outer, ...Object.fromEntries(ctx.headers) }, ctx.bytes(), {
        'X-Request-Id': requestId,
        ...(open ? corsHeaders(req, service, preflight) : {}),
      });
    };
    const extra = (preflightAnswer = false) => ({
      'X-Request-Id': requestId,
      ...corsHeaders(req, service, preflightAnswer),
    });

    if (known?.endpointLayer) {
      const segments = pathname.split('/');
      const noRoute = known.integerSegments.some((index) => !/^\d+$/.test(segments[index] ?? ''));
      if (noRoute || (method === 'OPTIONS' && known.endpointLayer.answersOptions)) {
        req.resume();
        const answer: Outgoing = {
          status: noRoute ? 404 : 200,
          body: undefined,
          headers: {},
          isError: noRoute,
          text: '',
        };
        if (presentsPublishing) return present(answer, otherLimitHeaders());
        return send(res, answer.status, { 'Content-Type': 'text/plain; charset=utf-8' }, '', extra(preflight));
      }
    }
    if (method === 'OPTIONS' && (service === 'profiles' || open) && preflight) {
      req.resume();
      return send(res, 204, {}, '', extra(true));
    }
    if (!known) {
      req.resume();
      // An endpoint layer (publishing's) answers a path it does not serve with an empty 404; the platform with the API's error body.
      if (owner?.endpointLayer) {
        const answer: Outgoing = { status: 404, body: undefined, headers: {}, isError: true, text: '' };
        if (presentsPublishing) return present(answer, otherLimitHeaders());
        return send(res, 404, { 'Content-Type': 'text/plain; charset=utf-8' }, '', extra());
      }
      return send(
        res,
        404,
        { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...otherLimitHeaders() },
        NOT_FOUND,
        extra(),
      );
    }
    if (!operation) {
      req.resume();
      const allow = Object.keys(known.methods);
      if (allow.includes('GET')) allow.push('HEAD');
      return send(
        res,
        405,
        {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-store',
          Allow: allow.join(', '),
          ...otherLimitHeaders(),
        },
        METHOD_NOT_ALLOWED,
        extra(preflight),
      );
    }
    // A path parameter with a malformed escape (`%E0`) is the server's 400 (src/platform/pipeline/requestInput.ts),
    // answered here: Prism's router would throw decoding it, and that would end the mock's process.
    const segments = pathname.split('/');
    const malformed = known.pathParameters.find(([index]) => decodedSegment(segments[index] ?? '') === undefined);
    if (malformed) {
      req.resume();
      const error = invalidRequest(`Invalid parameter ${malformed[1]}: malformed percent-encoding`);
      if (presentsPublishing)
        return present({ status: 400, body: publishingErrorBody(error), headers: {}, isError: true });
      const body =
        known.service === 'oauth' ? { error: error.code, error_description: error.message } : messageAndCodeBody(error);
      return send(
        res,
        400,
        {
          'Content-Type': 'application/json; charset=utf-8',
          ...(NO_STORE[known.service]?.(400) ? { 'Cache-Control': 'no-store' } : {}),
        },
        JSON.stringify(body),
        extra(),
      );
    }

    const upstream = request(
      {
        host: options.prism.hostname,
        port: options.prism.port,
        method,
        path: `${pathname}${url.search}`,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          void respond(answer, Buffer.concat(chunks)).catch(() => {
            if (!res.headersSent) res.writeHead(502).end();
          });
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);

    async function respond(answer: IncomingMessage, received: Buffer): Promise<void> {
      let status = answer.statusCode ?? 502;
      let body = received;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('access-control-')) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const named = (record: Record<string, string>) =>
        Object.fromEntries(Object.entries(record).map(([name, value]) => [headerName(name), value]));
      // Prism names what was wrong with the request; the API's message says it as the server does, when its example has that form.
      const violations = headers['sl-violations'];
      delete headers['sl-violations'];
      if (status === 400 && violations && String(headers['content-type']).startsWith('application/json'))
        body = Buffer.from(namedParameterError(body, violations));
      const json = /^application\/(?:[\w.+-]+\+)?json/.test(String(headers['content-type'] ?? ''));
      if (json) body = Buffer.from(atOwnOrigin(body.toString('utf8'), known!.service));
      if (headers.location) headers.location = atOwnOrigin(headers.location, known!.service);
      // A post list pages its example's posts as the server pages the site's: a client following `next_page` stops.
      const pages = operation!.pages;
      if (pages && status === 200 && json) {
        const list = JSON.parse(body.toString('utf8')) as Parameters<typeof pageOfPosts>[0];
        if (Array.isArray(list?.posts))
          body = Buffer.from(JSON.stringify(pageOfPosts(list, queryOf(url), pages.defaultNumber)));
      }
      const keyed = Boolean(req.headers.authorization);
      if (headers['x-ratelimit-limit'] !== undefined) {
        const limit = limitOf(known!.service, pathname, keyed) ?? Number(headers['x-ratelimit-limit']);
        headers['x-ratelimit-limit'] = String(limit);
        headers['x-ratelimit-remaining'] = String(status === 429 ? 0 : Math.max(0, limit - 1));
        headers['x-ratelimit-reset'] = String(Math.floor(Date.now() / 1000) + windowSeconds);
      }
      if (
        known!.service === 'profiles' &&
        pathname.startsWith('/v3/profiles/') &&
        status === 200 &&
        headers['cache-control']
      ) {
        headers['cache-control'] = profileCacheControl(keyed ? 'keyed' : 'anonymous', profiles.profileCacheSeconds);
      }
      const image =
        known!.image && status === 200 && String(headers['content-type']).startsWith('image/png')
          ? known!.image
          : undefined;
      if (image) {
        const size = Number(url.searchParams.get('s') ?? url.searchParams.get('size') ?? 80);
        sharp ??= (await import('sharp')).default;
        body = Number.isInteger(size) && size > 0 ? await sharp(image).resize(size, size).png().toBuffer() : image;
      }
      // An icon is the server's own (its bytes and entity tag), and a name no service has is its 404: the example is one icon.
      if (known!.service === 'profiles' && pathname.startsWith('/icons/') && status === 200) {
        const icon = serviceIcon(decodedSegment(pathname.slice('/icons/'.length)) ?? '');
        if (icon) {
          body = icon.bytes;
          headers.etag = icon.etag;
        } else {
          status = 404;
          body = Buffer.from(JSON.stringify(profilesErrorBody(iconNotFound())));
          headers['content-type'] = 'application/json; charset=utf-8';
          for (const name of ['etag', 'cache-control', 'content-security-policy']) delete headers[name];
        }
      }
      const etag = headers.etag;
      const ifNoneMatch = req.headers['if-none-match'];
      if (
        etag &&
        ifNoneMatch &&
        operation!.statuses.includes('304') &&
        status === 200 &&
        ifNoneMatch.split(/\s*,\s*/).some((tag) => tag === etag || tag === '*')
      ) {
        status = 304;
        body = Buffer.alloc(0);
        delete headers['content-type'];
      }
      // What each service's presenter adds (src/services/<name>/http/presentAnswer.ts): no-store on every dashboard answer, on profiles' errors.
      if (NO_STORE[known!.service]?.(status) && headers['cache-control'] === undefined)
        headers['cache-control'] = 'no-store';
      // The contract's example says `private, no-store` (what a token holder's answer carries); publishing's presenter writes it only when there is a token.
      if (presentsPublishing) delete headers['cache-control'];
      if (presentsPublishing && String(headers['content-type'] ?? '').startsWith('application/json')) {
        // The rate-limit step writes its headers on the answer itself, outside any envelope.
        const limits = Object.fromEntries(
          Object.entries(headers).filter(([name]) => name.startsWith('x-ratelimit-') || name === 'retry-after'),
        );
        const inner = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !(name in limits) && name !== 'content-type'),
        );
        return present(
          {
            status,
            body: JSON.parse(body.toString('utf8') || 'null'),
            headers: named(inner) as Record<string, string>,
            isError: status >= 400,
          },
          named(limits),
        );
      }
      send(res, status, named(headers), body, extra());
    }
  };
}
