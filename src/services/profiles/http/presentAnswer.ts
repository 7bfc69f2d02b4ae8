import { writeJson, type Outgoing } from '../../../platform/pipeline/service.js';
import { entityTag } from '../domain/entityTag.js';
import { EncodedJson } from '../../../platform/answers/encodedJson.js';
import { notModified } from '../../../platform/answers/ifNoneMatch.js';
import { setHeader, setHeaders, varyOn, type AnswerContext } from '../../../platform/answers/headers.js';

/**
 * Each answer body encoded once, by identity (`EncodedJson`: bytes of their
 * own and their entity tag): bodies are never changed once answered (kept
 * ones, the services list, are frozen), so a body answered again is not
 * serialized, encoded or hashed again. Kept profile answers come encoded.
 */
const representations = new WeakMap<object, EncodedJson<unknown>>();

/** The bytes and entity tag a 200 JSON answer of `body` is written with (an encoded body's own). */
export function representation(body: object): EncodedJson<unknown> {
  if (body instanceof EncodedJson) return body;
  let known = representations.get(body);
  if (!known) {
    known = EncodedJson.of(body, entityTag);
    representations.set(body, known);
  }
  return known;
}

/**
 * Writes a JSON answer of the API. Every 200 carries an `ETag` of its bytes
 * (so an anonymous and a keyed answer never share one: their bodies differ
 * by the keyed-only fields); a matching `If-None-Match` is answered `304 Not
 * Modified` with no body and the same headers. Answers vary by
 * `Authorization` (the field set and rate limit depend on it); errors are
 * never stored by caches.
 */
export function presentJsonAnswer(ctx: AnswerContext, answer: Outgoing): void {
  ctx.status = answer.status;
  setHeaders(ctx, answer.headers);
  varyOn(ctx, 'Authorization');
  if (answer.isError) setHeader(ctx, 'Cache-Control', 'no-store');
  if (answer.body === undefined) return;
  if (answer.status !== 200 || answer.isError || typeof answer.body !== 'object' || answer.body === null) {
    writeJson(ctx, answer.body);
    return;
  }
  const { bytes, etag } = representation(answer.body);
  setHeader(ctx, 'ETag', etag);
  if (notModified(ctx.req, etag)) {
    ctx.status = 304;
    return;
  }
  // The header as written, not `ctx.type` (which looks the type up on every answer).
  setHeader(ctx, 'Content-Type', 'application/json; charset=utf-8');
  ctx.body = bytes;
}

/** Every 200 it writes, and the 304 it makes of one, carries the `ETag` the contract requires there. */
presentJsonAnswer.writes = { ETag: true } as const;

/**
 * Writes an avatar answer: an image (its `Content-Type`, `ETag` and
 * `Cache-Control` come with it; a matching `If-None-Match` is `304`), a
 * redirect, or a JSON `404`/error. Images never depend on the caller, so
 * nothing varies by `Authorization`; errors are never stored by caches.
 */
export function presentAvatarAnswer(ctx: AnswerContext, answer: Outgoing): void {
  ctx.status = answer.status;
  setHeaders(ctx, answer.headers);
  if (answer.isError) setHeader(ctx, 'Cache-Control', 'no-store');
  if (Buffer.isBuffer(answer.body)) {
    if (notModified(ctx.req, answer.headers.ETag ?? '')) {
      ctx.status = 304;
      return;
    }
    ctx.body = answer.body;
  } else if (answer.body !== undefined) {
    writeJson(ctx, answer.body);
  } else {
    // A redirect has no body: an explicit null keeps Koa from writing its status text as one
    // (and makes the status 204, so it is set again).
    ctx.body = null;
    ctx.status = answer.status;
  }
}
