import type busboyModule from 'busboy';
import type { Context } from 'koa';
import qs from 'qs';
import { onFirstUse } from '../onFirstUse.js';
import { ApiError, invalidRequest } from '../answers/errors.js';

/**
 * Form bodies, read as PHP reads them: `application/x-www-form-urlencoded`
 * and the fields of `multipart/form-data` in PHP's bracket notation
 * (`categories[]=a&metadata[0][key]=k`, through `qs`), every value text;
 * the files of a multipart body as `UploadedFile`s under their field's name
 * (`media[]` -> `media`), each with its bytes (every part bounded: a file
 * by FILE_LIMIT_BYTES, all files of a body together by FILES_LIMIT_BYTES).
 * An operation takes them only where its contract declares the media type.
 */

/** A file of a multipart body: what it was called and what it held. */
export class UploadedFile {
  constructor(
    /** The form field it came in (`media[]`). */
    readonly field: string,
    readonly filename: string,
    readonly mimeType: string,
    /** Bytes received (at most the limit when `truncated`). */
    readonly size: number,
    /** The file was larger than FILE_LIMIT_BYTES; the rest was not read. */
    readonly truncated: boolean,
    /** Its bytes (empty when `truncated`: a file cut short is of no use). */
    readonly bytes: Buffer = Buffer.alloc(0),
  ) {}
}

/** Largest file of a multipart body read (the rest is dropped, the file marked `truncated`). */
const FILE_LIMIT_BYTES = 32 * 1024 * 1024;
/** Most bytes of all the files of one multipart body together (413 beyond). */
const FILES_LIMIT_BYTES = 64 * 1024 * 1024;
/** Most files one multipart body may carry. */
const FILE_COUNT_LIMIT = 20;
/** How deep a bracketed name may nest, and the most fields and array entries: a body stays bounded work. */
const QS_OPTIONS = {
  depth: 5,
  parameterLimit: 1000,
  arrayLimit: 100,
  allowPrototypes: false,
  allowDots: false,
} as const;

const tooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `The request body is larger than ${limit / 1024}kb`);

/** Reads the request's text, at most `limit` bytes (413 beyond). */
async function readText(ctx: Context, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An `application/x-www-form-urlencoded` body: JSON first when it is JSON
 * (what `curl --data '{...}'` sends, as the platform's endpoint layer tries
 * it), else the form's fields in bracket notation.
 */
export async function readFormBody(ctx: Context, limit: number): Promise<unknown> {
  const text = await readText(ctx, limit);
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      // Not JSON after all: a form whose first field name starts with a brace.
    }
  }
  return qs.parse(text, QS_OPTIONS);
}

/**
 * busboy, loaded by the first multipart body (a form with files is rare on
 * an API), not at start-up (docs/decisions/lazy-packages.md).
 */
const multipartParser = onFirstUse<typeof busboyModule>('busboy');

/** A `multipart/form-data` body: its fields in bracket notation, its files as `UploadedFile`s by field name. */
export function readMultipartBody(ctx: Context, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let parser: busboyModule.Busboy;
    try {
      parser = multipartParser()({
        headers: ctx.req.headers,
        limits: {
          fieldSize: limit,
          fields: QS_OPTIONS.parameterLimit,
          files: FILE_COUNT_LIMIT,
          fileSize: FILE_LIMIT_BYTES,
        },
      });
    } catch {
      reject(invalidRequest('Invalid body: malformed multipart/form-data'));
      return;
    }
    const pairs: string[] = [];
    const files: UploadedFile[] = [];
    let fieldBytes = 0;
    let fileBytes = 0;
    let failed: ApiError | undefined;
    let settled = false;
    const fail = (error: ApiError) => {
      failed ??= error;
    };
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    parser.on('field', (name, value) => {
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > limit) return fail(tooLarge(limit));
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    });
    parser.on('file', (name, stream, info) => {
      let size = 0;
      let chunks: Buffer[] | undefined = [];
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        fileBytes += chunk.length;
        if (fileBytes > FILES_LIMIT_BYTES) {
          chunks = undefined;
          fail(tooLarge(FILES_LIMIT_BYTES));
        }
        chunks?.push(chunk);
      });
      stream.on('end', () => {
        const truncated = (stream as { truncated?: boolean }).truncated === true;
        files.push(
          new UploadedFile(
            name,
            info.filename ?? '',
            info.mimeType,
            size,
            truncated,
            truncated || !chunks ? Buffer.alloc(0) : Buffer.concat(chunks),
          ),
        );
        chunks = undefined;
      });
      stream.resume();
    });
    parser.on('filesLimit', () => fail(invalidRequest(`Invalid body: at most ${FILE_COUNT_LIMIT} files`)));
    parser.on('fieldsLimit', () => fail(invalidRequest(`Invalid body: at most ${QS_OPTIONS.parameterLimit} fields`)));
    parser.on('error', () => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      settle(() => reject(failed ?? invalidRequest('Invalid body: malformed multipart/form-data')));
    });
    parser.on('close', () => {
      if (failed) return settle(() => reject(failed));
      const body = qs.parse(pairs.join('&'), QS_OPTIONS) as Record<string, unknown>;
      for (const file of files) {
        // `media[]`, `media[0]` and `media` are the same list, as the platform's endpoint reads `$_FILES`.
        const base = file.field.replace(/\[.*$/, '');
        const list = Array.isArray(body[base]) ? (body[base] as unknown[]) : [];
        list.push(file);
        body[base] = list;
      }
      settle(() => resolve(body));
    });
    ctx.req.on('error', () => settle(() => reject(invalidRequest('Invalid body: the request was closed'))));
    ctx.req.pipe(parser);
  });
}
