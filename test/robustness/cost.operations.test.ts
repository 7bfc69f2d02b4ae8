// @store-independent: what an operation costs the event loop is the same work on either store; SQLite (the default) runs its statements on the loop too, the harder case.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { personOf, startOAuthServer, tokenThroughFlow } from '../accounts/oauth/support.js';
import { startMailbox } from '../services/developer/support/mailbox.js';
import { contractChecker } from '../support/contract.js';
import { issueCredential } from '../support/credentials.js';
import { injectFetch } from '../support/inject.js';
import { apart, leastLongestSliceOf } from '../support/slices.js';
import { preparations, type Parts } from './cost.fixtures.js';
import {
  destructiveLast,
  exampleBody,
  examplesOf,
  fuzzTargets,
  LIMITS_OUT_OF_REACH,
  type FuzzTarget,
  type Schema,
} from './targets.js';

/**
 * Issue 52: every operation of every contract, sent its largest valid input
 * (the contract's examples for the path, every query parameter at its
 * longest or highest, the example body with each text at its longest and the
 * unbounded ones filled, within the body limit, with what makes rendering,
 * filtering and diffs work hardest; an operation that takes files, a
 * multipart body with a large photo in each file field), alone and 20 at a time. No synchronous
 * slice of the server's work may pass 100 ms of CPU time (`leastLongestSlice`:
 * this thread's CPU, which a busy machine does not stretch; answers are
 * checked against the contract only after each measure). Every answer must
 * be the operation's work, never a refusal (a 503 with `Retry-After` from the
 * images' gate aside, among the 20 at once): `cost.fixtures.ts` gives each
 * operation what the contract's examples cannot (what exists here, values
 * valid only here, a request of its own where one uses up what it names).
 * Operations that delete or revoke go last, so the others run with their
 * data, and those that end the session the requests carry (a log-in replaces
 * it) after them.
 */
const BOUND_MS = 100;
const TOGETHER = 20;
/** Text that makes rendering (shortcodes, autop), the HTML filter and a word diff work hardest for its length. */
const HARD_TEXT = '[gallery] [caption width="10" caption="c"]<img src="x.png">[/caption] <b><i>w</i></b>\n\n';

// The server's mail (the links' tokens that verifyEmail, confirmEmailChange and resetPassword redeem).
const mailbox = await startMailbox();
afterAll(() => mailbox.close());
// Its own address as its issuer: the profile API's `/me` operations take an OAuth token, got through the flow.
const server = await startOAuthServer({
  SMTP_URL: mailbox.url,
  ...LIMITS_OUT_OF_REACH,
  // As in production (decisions/response-validation-off-in-production.md): the answers are checked here instead.
  RESPONSE_VALIDATION: 'off',
});
afterAll(() => server.close());
const checker = await contractChecker();
/** A token alex gave an app with the profile scope: what the profile API's `oauth` operations (`/me/...`) take. */
const alex = await personOf(server, 'alex@example.com');
const profileToken = await tokenThroughFlow(server, alex, 'profile');
const credentials = new Map(
  await Promise.all(server.built.services.map(async (s) => [s.name, await issueCredential[s.name]?.(server)] as const)),
);
/** What each operation needs here to do its work rather than refuse (cost.fixtures.ts). */
const prepared = await preparations(
  server,
  credentials.get('publishing')!,
  credentials.get('developer')!,
  alex,
  mailbox,
);
const targets = destructiveLast(fuzzTargets(server.built.services));

/** A query parameter's largest valid value: its longest enum value, its maximum, its longest plain text, or its example. */
function largestValue(parameter: FuzzTarget['parameters'][number]): string | undefined {
  const schema: Schema = parameter.schema ?? {};
  const examples = examplesOf(parameter);
  if (schema.enum?.length) return String([...schema.enum].sort((a, b) => String(b).length - String(a).length)[0]);
  if ((schema.type === 'integer' || schema.type === 'number') && schema.maximum !== undefined)
    return String(Math.min(schema.maximum, 2 ** 31 - 1));
  if (schema.type === 'string' && !schema.pattern && !schema.format && schema.maxLength !== undefined)
    return 'a '.repeat(Math.ceil(Math.min(schema.maxLength, 2000) / 2)).slice(0, Math.min(schema.maxLength, 2000));
  return examples[0];
}

/** The properties of the operation's request body schema under `mediaType`. */
function bodyPropertiesAs(target: FuzzTarget, mediaType: string): Record<string, Schema & { 'x-php-cast'?: string }> {
  const pathItem = (target.service.contract.dereferenced.paths as Record<string, Record<string, unknown>>)[
    target.operation.path
  ]!;
  const operation = pathItem[target.operation.method.toLowerCase()] as {
    requestBody?: { content?: Record<string, { schema?: Schema }> };
  };
  return operation.requestBody?.content?.[mediaType]?.schema?.properties ?? {};
}

/** The body's JSON schema's properties. */
const bodyProperties = (target: FuzzTarget) => bodyPropertiesAs(target, 'application/json');

/** The names of the fields a multipart body of the operation carries files in (`x-php-cast: files`), if it takes one. */
function fileFields(target: FuzzTarget): string[] {
  const properties = bodyPropertiesAs(target, 'multipart/form-data');
  return Object.keys(properties).filter((name) => properties[name]?.['x-php-cast'] === 'files');
}

/**
 * A photo of a phone's size in bytes (a few MB, made once): every byte of a file crosses the pipeline's steps
 * (parsing, the input checks) before any handler. Noise at full quality with no chroma subsampling, so it
 * neither compresses nor decodes cheaply, in 2 MP rather than a phone's 6 to 12: its pixels are decoded and
 * written again on sharp's threads, not the event loop this test watches, and at 6 MP that work was a quarter
 * of the file's CPU (about 160 ms an image, 88 images; 2 MP, 5 MB of bytes: about 70 ms) for nothing measured
 * here. Bounds on pixels are the media suites' (`MEDIA_MAX_PIXELS`, the images' gate).
 */
const PHOTO = await (() => {
  const [width, height] = [1600, 1200];
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
})();

/** A multipart body with the photo in each file field, beside the example's other fields. */
function multipartBody(target: FuzzTarget, fields: readonly string[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(exampleBody(target)))
    if (!fields.includes(name) && (typeof value === 'string' || typeof value === 'number'))
      form.append(name, String(value));
  for (const name of fields) form.append(name, new Blob([new Uint8Array(PHOTO)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

/** The body limit (64 kB) less room for the rest of the request's fields. */
const BODY_BYTES = 63_000;

/**
 * The example body with each text at its longest: bounded ones at their
 * `maxLength`, unbounded ones sharing what is left of the body limit.
 */
function largestBody(target: FuzzTarget): string | undefined {
  if (target.operation.body === 'none') return undefined;
  const example = exampleBody(target);
  const properties = bodyProperties(target);
  const texts = Object.keys(example).filter((name) => {
    const schema = properties[name] ?? {};
    const plainText = schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
    return typeof example[name] === 'string' && plainText && !schema.enum && !schema.pattern && !schema.format;
  });
  const unbounded = texts.filter((name) => properties[name]?.maxLength === undefined);
  const fill = (length: number) => HARD_TEXT.repeat(Math.ceil(length / HARD_TEXT.length)).slice(0, length);
  for (let share = Math.floor(BODY_BYTES / Math.max(1, unbounded.length)); ; share = Math.floor(share * 0.9)) {
    const body = { ...example };
    for (const name of texts) body[name] = fill(Math.min(properties[name]?.maxLength ?? share, share));
    const json = JSON.stringify(body);
    if (Buffer.byteLength(json) <= BODY_BYTES || share < 100) return json;
  }
}

/** The request of an operation with its largest valid input, and what it needs here to reach its work (`parts`). */
function largestRequest(target: FuzzTarget, parts: Parts = {}) {
  const segments = Object.fromEntries(
    target.parameters.filter((p) => p.in === 'path').map((p) => [p.name, examplesOf(p)[0] ?? '1']),
  );
  Object.assign(segments, parts.path);
  const path = `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(segments[name] ?? ''))}`;
  const pair = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  // The values given first: a query cut to fit the request line (below) keeps them.
  const query = [
    ...Object.entries(parts.query ?? {}).map(([name, value]) => pair(name, value)),
    ...target.parameters
      .filter((p) => p.in === 'query' && !['callback', 'http_envelope', 'pretty'].includes(p.name))
      .filter((p) => parts.query?.[p.name] === undefined)
      .flatMap((p) => {
        const value = largestValue(p);
        return value === undefined ? [] : [pair(p.name, value)];
      }),
  ].join('&');
  const files = fileFields(target);
  const largest = largestBody(target);
  const body = files.length
    ? multipartBody(target, files)
    : parts.body
      ? JSON.stringify(parts.body(largest === undefined ? {} : (JSON.parse(largest) as Record<string, unknown>)))
      : largest;
  const headers: Record<string, string> = {
    ...(parts.headers ??
      (target.operation.securitySchemes.includes('oauth') && target.service.name === 'profiles'
        ? { authorization: `Bearer ${profileToken}` }
        : credentials.get(target.service.name))),
    // A multipart body's type (with its boundary) is the form's own.
    ...(body === undefined || typeof body !== 'string' ? {} : { 'content-type': 'application/json' }),
  };
  // Node's parser refuses a request line over its header budget: a query that long is cut at a parameter.
  let target8k = query;
  while (path.length + target8k.length > 7_000 && target8k.includes('&'))
    target8k = target8k.slice(0, target8k.lastIndexOf('&'));
  return {
    method: target.operation.method,
    url: `${server.url}${path}${target8k ? `?${target8k}` : ''}`,
    headers,
    body,
  };
}

/** `count` requests of the operation: one request sent `count` times, or, where a request uses up what it names, each its own. */
async function requestsOf(target: FuzzTarget, count: number) {
  const preparation = prepared[target.operation.operationId] ?? {};
  if (!('each' in preparation)) {
    // One request, sent again (a file field's photo copied into a form once, not once per request).
    const request = largestRequest(target, preparation);
    return Array.from({ length: count }, () => request);
  }
  const requests: ReturnType<typeof largestRequest>[] = [];
  // One after another: what they make (sign-ups, sessions, posts) is set up, not measured.
  for (let i = 0; i < count; i++) requests.push(largestRequest(target, await preparation.each()));
  return requests;
}

/** Sends the request without checking it (the check is this test's work, not the server's): what to check afterwards. */
async function send(request: ReturnType<typeof largestRequest>) {
  const response = await injectFetch(server.server)(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

it('covers every operation of every contract the app serves', () => {
  expect(targets.length).toBe(server.built.services.reduce((n, s) => n + s.contract.operations.length, 0));
});

describe('every operation with its largest valid input', () => {
  it(`holds the event loop under ${BOUND_MS} ms of CPU at a time, alone and ${TOGETHER} at once`, async () => {
    const over: string[] = [];
    /** Operations measured on a refusal rather than their work: none may be. */
    const refused: string[] = [];
    for (const target of targets) {
      // What an operation's first request does once per process (loading a package, compiling its validators) is not measured.
      const [first] = await requestsOf(target, 1);
      await send(first!);
      // Each the least of up to three measures (`leastLongestSliceOf`): a measure over the bound is taken again, with
      // requests of its own where a request uses up what it names.
      const alone = await leastLongestSliceOf(
        () => requestsOf(target, 1),
        ([request]) => send(request!),
        BOUND_MS,
      );
      const together = await leastLongestSliceOf(
        () => requestsOf(target, TOGETHER),
        (requests) => apart(TOGETHER, (i) => send(requests[i]!)),
        BOUND_MS,
      );
      for (const answer of [alone.result, ...together.result]) {
        const text = new TextDecoder().decode(answer.bytes);
        // Checked as answers of the operation the first request names (each request names its own instance of it).
        checker.check(first!.method, new URL(first!.url), answer.status, answer.headers, text, answer.bytes);
        // The operation's work, not a refusal; or a 503 saying when to come back, from a gate that bounds the work
        // (the images' gate, 20 photos at once).
        if (answer.status === 503 && answer.headers.has('retry-after') && answer !== alone.result) continue;
        if (answer.status >= 400) refused.push(`${target.label} answered ${answer.status}: ${text.slice(0, 200)}`);
      }
      const longest = Math.max(alone.longestMs, together.longestMs);
      // COST_REPORT=1 prints every operation's answer and slices.
      if (process.env.COST_REPORT)
        console.log(
          `${alone.result.status} ${target.label}: ${alone.longestMs.toFixed(1)} / ${together.longestMs.toFixed(1)} ms`,
        );
      if (longest >= BOUND_MS)
        over.push(
          `${target.label}: alone ${alone.longestMs.toFixed(1)} ms, ${TOGETHER} at once ${together.longestMs.toFixed(1)} ms`,
        );
    }
    expect(refused).toEqual([]);
    expect(over).toEqual([]);
  }, 300_000);
});
