import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { writeJson, type Outgoing } from '../../http/service.js';
import { ifNoneMatchMatches } from './ifNoneMatch.js';

/** A strong entity tag of a representation's bytes. */
const entityTag = (bytes: Buffer) => `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/**
 * Bytes and entity tag of each answer body, by identity: bodies are never
 * changed once answered (cached profile answers are frozen), so a body
 * answered again is not serialized, encoded or hashed again. Kept as bytes,
 * not text: a text body would be scanned for its UTF-8 length and encoded
 * again on every answer.
 */
const representations = new WeakMap<object, { bytes: Buffer; etag: string }>();

function representation(body: object) {
  let known = representations.get(body);
  if (!known) {
    const bytes = Buffer.from(JSON.stringify(body));
    known = { bytes, etag: entityTag(bytes) };
    representations.set(body, known);
  }
  return known;
}

/**
 * Writes a profiles answer. Every 200 carries an `ETag` of its bytes (so an
 * anonymous and a keyed answer never share one: their bodies differ by the
 * keyed-only fields); a GET or HEAD whose `If-None-Match` matches it is
 * answered `304 Not Modified` with no body and the same headers. Answers
 * vary by `Authorization` (the field set and rate limit depend on it);
 * errors are never stored by caches.
 */
export function presentProfilesAnswer(ctx: Context, answer: Outgoing): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.vary('Authorization');
  if (answer.isError) ctx.set('Cache-Control', 'no-store');
  if (answer.body === undefined) return;
  if (answer.status !== 200 || answer.isError || typeof answer.body !== 'object' || answer.body === null) {
    writeJson(ctx, answer.body);
    return;
  }
  const { bytes, etag } = representation(answer.body);
  ctx.set('ETag', etag);
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ifNoneMatchMatches(ctx.get('if-none-match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = bytes;
}
