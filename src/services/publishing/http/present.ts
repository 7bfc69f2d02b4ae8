import type { Context } from 'koa';
import type { Outgoing, Presenter } from '../../../platform/pipeline/service.js';
import { setCorsHeaders, type AllowedOrigins } from './cors.js';

const TRUTHY = /^(1|t|true)$/i;
const CALLBACK_UNSAFE = /[^A-Za-z0-9_.]/g;

/** The v1.1 presentation parameters, read leniently from the raw query (they apply even to a request that failed validation). */
export interface Presentation {
  envelope: boolean;
  pretty: boolean;
  /** Top-level post keys to keep; undefined keeps all. */
  fields: string[] | undefined;
  /** Sanitised JSONP callback name; undefined means no wrapping. */
  callback: string | undefined;
}

const lastValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

/**
 * Reads `http_envelope`, `pretty`, `fields` and `callback` as the platform
 * does: `true`, `1`, `t` (any case) are true; `fields` is a trimmed comma
 * list; characters of `callback` other than `[A-Za-z0-9_.]` are stripped and
 * an empty result means no wrapping.
 */
export function readPresentation(query: Context['query']): Presentation {
  const fields = lastValue(query.fields)
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const callback = lastValue(query.callback)?.replace(CALLBACK_UNSAFE, '');
  return {
    envelope: TRUTHY.test(lastValue(query.http_envelope) ?? ''),
    pretty: TRUTHY.test(lastValue(query.pretty) ?? ''),
    fields: fields?.length ? fields : undefined,
    callback: callback || undefined,
  };
}

/** Keeps only the named top-level keys of a post, in the post's own key order. */
export function pickFields(post: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const wanted = new Set(fields);
  return Object.fromEntries(Object.entries(post).filter(([key]) => wanted.has(key)));
}

/**
 * The presentation of publishing answers, with the CORS policy of the
 * deployment (see `setCorsHeaders`). It writes an answer the way every v1.1
 * endpoint does: `fields` filters a successful post (never an error body;
 * only where `fieldsApply`: the post operations, which declare `fields`);
 * `http_envelope` turns any answer into HTTP 200 with `{code, headers,
 * body}`; `pretty` indents by 4 spaces; `callback` wraps the result
 * (envelope first) as `/**\/NAME(<json>);`, served as
 * `application/javascript` with `nosniff` so a browser never runs a JSON
 * answer as script by accident (only on the operations that declare
 * `callback`, `callbackApplies`). A plain-text answer of the endpoint layer
 * (`answer.text`) is written as it is, never enveloped or wrapped.
 */
export const publishingPresenter =
  (allowedOrigins: AllowedOrigins, applies: { fieldsApply: boolean; callbackApplies: boolean }): Presenter =>
  (ctx, answer) =>
    presentPublishing(ctx, answer, allowedOrigins, applies);

/**
 * `callbackApplies`: JSONP only for an operation whose contract declares
 * `callback`, never for a request no operation took (an unknown path, an
 * unknown method), so no path of this origin answers script unless the
 * contract says so.
 */
function presentPublishing(
  ctx: Context,
  answer: Outgoing,
  allowedOrigins: AllowedOrigins,
  { fieldsApply, callbackApplies }: { fieldsApply: boolean; callbackApplies: boolean },
): void {
  setCorsHeaders(ctx, answer.status, allowedOrigins);
  if (answer.text !== undefined) {
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = Buffer.from(answer.text);
    return;
  }
  const how = readPresentation(ctx.query);
  let status = answer.status;
  let body = answer.body;
  let headers = answer.headers;
  if (how.fields && fieldsApply && !answer.isError && body && typeof body === 'object') {
    body = pickFields(body as Record<string, unknown>, how.fields);
  }
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
  const json = JSON.stringify(body, null, how.pretty ? 4 : undefined);
  ctx.status = status;
  ctx.set(headers);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // What a token may read (a trashed post, `context=edit`) is its holder's alone: no shared cache keeps it.
  if (ctx.get('authorization')) ctx.set('Cache-Control', 'private, no-store');
  // Bytes, not text: Koa would measure a text body's UTF-8 length and Node encode it again.
  if (how.callback && callbackApplies) {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = Buffer.from(`/**/${how.callback}(${json});`);
  } else {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = Buffer.from(json);
  }
}
