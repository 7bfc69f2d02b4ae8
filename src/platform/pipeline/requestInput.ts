import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import type { ContractOperation } from '../contract/types.js';
import { ApiError, invalidRequest } from '../answers/errors.js';
import { readFormBody, readMultipartBody } from './formBodies.js';
import { readQuery } from './queryParameters.js';

/*
 * The pipeline's input step (`contractPipeline`): the path and query
 * parameters, the body where the operation declares one, all validated
 * against the contract; each problem an ApiError (400, 413, 415).
 */

/**
 * Builds the parameter object the contract validates: path values decoded,
 * and the declared query parameters as `readQuery` reads them (the last
 * value of a repeated one, the platform's boolean spellings).
 * No text value may hold a NUL character: no API gives it a meaning, and
 * PostgreSQL refuses it in a query, so it is a 400 before any handler runs.
 */
export function validateInput(
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

/**
 * Where a NUL character is in a value (`where`, or `where.key` inside an object or array), if anywhere.
 * An uploaded file's bytes are data, not text, and are not walked: a walk of a `Buffer` visits each byte as
 * a key, work and garbage in proportion to the file, all on the event loop (docs/performance.md, media).
 */
function nulAt(value: unknown, where: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? where : undefined;
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
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

export type BodyParser = ReturnType<typeof bodyParser>;

/**
 * `@koa/bodyparser` for JSON only (strict: an object or array at the top),
 * at most BODY_LIMIT, on the methods of the operations that declare a body.
 * The pipeline calls it only for those operations.
 */
export function jsonBodyParser(operations: readonly ContractOperation[]): BodyParser {
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
