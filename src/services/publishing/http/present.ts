import type { Outgoing, Presenter } from '../../../platform/pipeline/service.js';
import { EncodedJson } from '../../../platform/answers/encodedJson.js';
import type { QueryDeclaration } from '../../../platform/pipeline/queryParameters.js';
import { readQuery } from '../../../platform/pipeline/queryParameters.js';
import { setCorsHeaders, type AllowedOrigins } from './cors.js';
import { jsonWithKeptParts } from '../../../platform/answers/frozen.js';
import { setHeader, setHeaders, type AnswerContext } from '../../../platform/answers/headers.js';

const CALLBACK_UNSAFE = /[^A-Za-z0-9_.]/g;

/** The v1.1 presentation parameters of one request. */
export interface Presentation {
  envelope: boolean;
  pretty: boolean;
  /** Top-level post keys to keep; undefined keeps all. */
  fields: string[] | undefined;
  /** Sanitised JSONP callback name; undefined means no wrapping. */
  callback: string | undefined;
}

/** A flag of the endpoint layer, as the contract declares `http_envelope` and `pretty` (`Flag`: a boolean or any text). */
const FLAG = { boolean: true, array: false };

/**
 * What the endpoint layer honours on an answer no operation gives (an
 * unknown path or method): the envelope and pretty JSON, as on every answer;
 * never `fields` or a JSONP `callback`, which only an operation declares.
 */
const UNROUTED_OPTIONS: QueryDeclaration = new Map([
  ['http_envelope', FLAG],
  ['pretty', FLAG],
]);

/**
 * Reads `http_envelope`, `pretty`, `fields` and `callback` from the request,
 * with the pipeline's own reader (`readQuery`) and the operation's declared
 * parameters: the options apply even to a request that failed validation,
 * and only those the operation declares (`fields`, `callback`). A flag is
 * true only as `true`, `1` or `t` (any case), as the v1.1 endpoint layer's
 * `is_truthy` reads it: any other value (`yes`, `0`, empty) is false.
 * `fields` is a trimmed comma list; characters of `callback` other than
 * `[A-Za-z0-9_.]` are stripped and an empty result means no wrapping.
 */
export function readPresentation(raw: AnswerContext['query'], declared: QueryDeclaration): Presentation {
  const query = readQuery(raw, declared);
  const callback = typeof query.callback === 'string' ? query.callback.replace(CALLBACK_UNSAFE, '') : undefined;
  return {
    envelope: query.http_envelope === true,
    pretty: query.pretty === true,
    fields: fieldList(query.fields),
    callback: callback || undefined,
  };
}

/** `fields` as the names it lists (trimmed, empty ones dropped); undefined when it names none. */
function fieldList(fields: unknown): string[] | undefined {
  if (typeof fields !== 'string') return undefined;
  const names = fields
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length ? names : undefined;
}

/**
 * The keys of a post a request's `fields` keeps (`fieldList`), for a flow
 * that builds only those (a post object built for them is what
 * `pickFields` keeps of the whole one); undefined keeps all.
 */
export function wantedFields(fields: unknown): ReadonlySet<string> | undefined {
  const names = fieldList(fields);
  return names && new Set(names);
}

/** Keeps only the named top-level keys of a post, in the post's own key order. */
export function pickFields(post: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const wanted = new Set(fields);
  return Object.fromEntries(Object.entries(post).filter(([key]) => wanted.has(key)));
}

/**
 * `fields` on a successful answer: on each post of a list (`posts`, as the v1.1 layer filters a list) or each site of
 * `/me/sites` (`sites`), else on the post or site itself.
 */
function withFields(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (!('ID' in body) && Array.isArray(body.posts)) {
    return { ...body, posts: body.posts.map((post) => pickFields(post as Record<string, unknown>, fields)) };
  }
  if (!('ID' in body) && Array.isArray(body.sites)) {
    return { ...body, sites: body.sites.map((site) => pickFields(site as Record<string, unknown>, fields)) };
  }
  return pickFields(body, fields);
}

/** The JSON of frozen post objects, by object, for as long as something holds them. */
const keptJson = new WeakMap<object, string>();

/**
 * The presentation of publishing answers, with the CORS policy of the
 * deployment (see `setCorsHeaders`). It writes an answer the way every v1.1
 * endpoint does, reading its options from the parameters the answering
 * operation declares (none for a request no operation took):
 * `fields` filters a successful post, or each post of a list (never an
 * error body), where the operation declares `fields`; `http_envelope` turns
 * any answer into HTTP 200 with `{code, headers, body}`; `pretty` indents by
 * 4 spaces; `callback` wraps the result (envelope first) as
 * `/**\/NAME(<json>);`, served as `application/javascript` with `nosniff`
 * so a browser never runs a JSON answer as script by accident, where the
 * operation declares `callback`: never for a request no operation took (an
 * unknown path, an unknown method), so no path of this origin answers
 * script unless the contract says so. A plain-text answer of the endpoint
 * layer (`answer.text`) is written as it is, never enveloped or wrapped.
 */
export const publishingPresenter =
  (allowedOrigins: AllowedOrigins): Presenter =>
  (ctx, answer, operation) =>
    presentPublishing(ctx, answer, allowedOrigins, operation?.queryParams ?? UNROUTED_OPTIONS);

function presentPublishing(
  ctx: AnswerContext,
  answer: Outgoing,
  allowedOrigins: AllowedOrigins,
  declared: QueryDeclaration,
): void {
  setCorsHeaders(ctx, answer.status, allowedOrigins);
  // Headers straight to Node's response (`platform/answers/headers.ts`), the types as written: this runs on every answer.
  if (answer.text !== undefined) {
    ctx.status = answer.status;
    setHeaders(ctx, answer.headers);
    setHeader(ctx, 'Content-Type', 'text/plain; charset=utf-8');
    ctx.body = Buffer.from(answer.text);
    return;
  }
  const how = readPresentation(ctx.query, declared);
  let status = answer.status;
  // An encoded body is decoded: fields, the envelope and JSONP shape what it encodes.
  let body = answer.body instanceof EncodedJson ? answer.body.decode() : answer.body;
  let headers = answer.headers;
  if (how.fields && !answer.isError && body && typeof body === 'object')
    body = withFields(body as Record<string, unknown>, how.fields);
  if (how.envelope) {
    body = {
      code: status,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        ...Object.entries(headers).map(([name, value]) => ({ name, value })),
      ],
      body,
    };
    status = 200;
    headers = {};
  }
  // A kept (frozen) post object is serialised once, whatever answers hold it (`presentedPosts`).
  const json = how.pretty ? JSON.stringify(body, null, 4) : jsonWithKeptParts(body, keptJson);
  ctx.status = status;
  setHeaders(ctx, headers);
  setHeader(ctx, 'X-Content-Type-Options', 'nosniff');
  // What a token may read (a trashed post, `context=edit`) is its holder's alone: no shared cache keeps it.
  if (ctx.req.headers.authorization) setHeader(ctx, 'Cache-Control', 'private, no-store');
  // Bytes, not text: Koa would measure a text body's UTF-8 length and Node encode it again.
  if (how.callback) {
    setHeader(ctx, 'Content-Type', 'application/javascript; charset=utf-8');
    ctx.body = Buffer.from(`/**/${how.callback}(${json});`);
  } else {
    setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
    ctx.body = Buffer.from(json);
  }
}
