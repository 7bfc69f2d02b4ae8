import * as fc from 'fast-check';
import type { WireRequest } from '../support/http.js';
import {
  CALLBACK_INJECTIONS,
  examplesOf,
  exampleBody,
  type FuzzTarget,
  type Parameter,
  type Schema,
} from './targets.js';

/**
 * Request generators built from the contracts: for each operation, its
 * parameters' schemas and examples give valid values, and their types give
 * the wrong ones; on top come the values no schema expects (encoded slashes,
 * `..`, broken percent-encoding, NUL, very long and non-ASCII text), unknown
 * and repeated query parameters, odd headers, bodies and methods.
 */

const INT32 = 2 ** 31 - 1;

/**
 * An arbitrary built once per schema (`build`; an absent schema is one too): building a string arbitrary is
 * costly (fast-check works out its slices of interesting values), and every operation's requests declare their
 * service's query parameters again, the same schema objects of the dereferenced contract. An arbitrary holds no
 * state, so a shared one generates what a new one would, from the same seed.
 */
function oncePerSchema(
  build: (schema: Schema | undefined) => fc.Arbitrary<string>,
): (schema: Schema | undefined) => fc.Arbitrary<string> {
  const built = new WeakMap<Schema, fc.Arbitrary<string>>();
  let none: fc.Arbitrary<string> | undefined;
  return (schema) => {
    if (!schema) return (none ??= build(undefined));
    let arbitrary = built.get(schema);
    if (!arbitrary) built.set(schema, (arbitrary = build(schema)));
    return arbitrary;
  };
}

/** Values that satisfy a schema, as the text a URL or header carries. */
export const validText = oncePerSchema(validTextOf);

function validTextOf(schema: Schema | undefined): fc.Arbitrary<string> {
  if (!schema) return fc.string({ maxLength: 20 });
  if (schema.enum?.length) return fc.constantFrom(...schema.enum.map(String));
  if (schema.const !== undefined) return fc.constant(String(schema.const));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map(validText));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer': {
      const min = Math.max(schema.minimum ?? -INT32, Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? INT32, Number.MAX_SAFE_INTEGER);
      return fc.oneof(
        fc.integer({ min: Math.max(min, -INT32), max: Math.min(max, INT32) }).map(String),
        fc.constantFrom(String(min), String(max)),
      );
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum }).map(String);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    default: {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' });
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 64, 64));
      return fc.string({ unit: 'grapheme', minLength, maxLength });
    }
  }
}

/** Values of the wrong type, or just outside the schema's bounds. */
export const wrongText = oncePerSchema(wrongTextOf);

function wrongTextOf(schema: Schema | undefined): fc.Arbitrary<string> {
  const always = fc.constantFrom('', 'null', 'undefined', '[]', '{}', 'NaN', 'true', '-1', '__proto__');
  // A schema of alternatives (`anyOf: [boolean, string]`) is wrong the way its first alternative is.
  const typed = schema?.type === undefined ? (schema?.anyOf ?? schema?.oneOf)?.[0] : schema;
  const type = Array.isArray(typed?.type) ? typed.type[0] : typed?.type;
  if (type === 'integer' || type === 'number') {
    const beyond = [schema?.minimum, schema?.maximum]
      .filter((b): b is number => b !== undefined)
      .flatMap((b) =>
        Number.isSafeInteger(b) ? [String(BigInt(b) - 1n), String(BigInt(b) + 1n)] : [String(b - 1), String(b + 1)],
      );
    return fc.oneof(
      always,
      fc.constantFrom('abc', '1.5', '1e3', '0x10', ' 1', '1 ', '+1', '01', '9'.repeat(40), '-0', 'Infinity', ...beyond),
      fc.double().map(String),
    );
  }
  if (type === 'boolean')
    return fc.oneof(always, fc.constantFrom('yes', 'no', 'on', '2', 'tru', 'True ', 'FALSE!', 'y'));
  const tooLong = schema?.maxLength === undefined ? [] : [fc.constant('x'.repeat(schema.maxLength + 1))];
  return fc.oneof(always, ...tooLong, fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 1500 }));
}

/** Text no schema expects: control characters, non-ASCII, markup, very long. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\r\nX-Injected: 1',
    '\u2028\u2029',
    '\uFEFF',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '${jndi:ldap://x}',
    '../../../../etc/passwd',
    '..\\..\\windows',
    'constructor',
    'hasOwnProperty',
    '%s%s%s%n',
    '😀'.repeat(50),
    'é'.repeat(300),
  ),
  fc.string({ unit: 'grapheme-ascii', minLength: 500, maxLength: 1500 }),
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text as UTF-8 can carry it: a lone surrogate becomes the replacement character. */
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');
/** `encodeURIComponent` that cannot throw. */
const encode = (text: string) => encodeURIComponent(wellFormed(text));

/** Path segments as they go on the wire, already percent-encoded (or deliberately not). */
const WIRE_SEGMENTS = [
  '',
  '.',
  '..',
  '%2E%2E',
  '.%2e',
  '%2F',
  '%2f',
  'a%2Fb',
  '..%2F..%2Fetc%2Fpasswd',
  '%5C',
  '\\',
  'a\\..\\b',
  '%00',
  'a%00b',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%C0%80',
  '%FF%FE',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%20',
  '+',
  ';',
  'a;b=c',
  ':',
  '%3A%3A',
  'demo.example.com%3A%3Ablog',
  '@',
  '*',
  '~',
  '$',
  "'",
  '(',
  ')',
  ',',
  '1',
  '0',
  '-1',
  '00000000001',
  '9007199254740991',
  '9007199254740992',
  '1e3',
  'x'.repeat(129),
  'x'.repeat(254),
  'x'.repeat(4000),
];

/** Encoded control characters: what a database or log line is least ready for. */
const CONTROL_SEGMENTS = [
  '%00',
  'a%00b',
  '%01',
  '%08',
  '%09',
  '%0A',
  '%0D%0A',
  '%1B',
  '%1F',
  '%7F',
  '%C2%85',
  '%E2%80%A8',
];

/** UTF-8 bytes sent without percent-encoding (as Node's client sends a path: one byte per character). */
const rawUtf8 = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
  .map((text) => Buffer.from(wellFormed(text), 'utf8').toString('latin1'))
  // Keep the segment a segment: no separators, and nothing the server's URL parser would treat specially.
  .map((wire) => wire.replace(/[\u0000-\u0020/?#%\u007f\u00a0]/g, ''))
  .filter((wire) => wire.length > 0);

/** A path value as sent: from its schema (valid or not), or one of the segments no schema expects. */
function pathSegment(parameter: Parameter): fc.Arbitrary<string> {
  const examples = examplesOf(parameter);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: examples.length ? fc.constantFrom(...examples.map(encode)) : validText(parameter.schema).map(encode),
    },
    { weight: 3, arbitrary: validText(parameter.schema).map(encode) },
    { weight: 2, arbitrary: wrongText(parameter.schema).map(encode) },
    { weight: 2, arbitrary: nastyText.map(encode) },
    { weight: 3, arbitrary: fc.constantFrom(...WIRE_SEGMENTS) },
    { weight: 1, arbitrary: fc.constantFrom(...CONTROL_SEGMENTS) },
    { weight: 1, arbitrary: rawUtf8 },
  );
}

/** Names of query parameters no operation declares, or that mean something elsewhere. */
const STRAY_QUERY_NAMES = [
  'source',
  'access_token',
  'token',
  'api_key',
  'key',
  '__proto__',
  'constructor',
  'toString',
  'a[b]',
  'fields[]',
  '',
  '%',
  '%zz',
  'ünïcode',
];

/** A value for a query parameter as sent: percent-encoded text, or a broken encoding. */
function queryValue(parameter: Parameter | undefined): fc.Arbitrary<string> {
  const typed = parameter ? [validText(parameter.schema), wrongText(parameter.schema)] : [];
  return fc.oneof(
    ...[...typed, nastyText, fc.constantFrom(...CALLBACK_INJECTIONS)].map((arb) => arb.map(encode)),
    fc.constantFrom('%', '%zz', '%E0%A4%A', '+', '%2B', '&', '=', '==', '%26', '%3D', ...CONTROL_SEGMENTS),
  );
}

/** The query string: declared parameters (valid, wrong, repeated), stray ones, and odd separators. */
function queryString(parameters: readonly Parameter[]): fc.Arbitrary<string> {
  const declared = parameters.filter((p) => p.in === 'query');
  if (!declared.length) declared.push({ name: 'source', in: 'query', schema: { type: 'string' } });
  const pair = fc.oneof(
    ...declared.map((parameter) =>
      fc.tuple(fc.constant(encode(parameter.name)), fc.option(queryValue(parameter), { nil: undefined, freq: 8 })),
    ),
    fc.tuple(fc.constantFrom(...STRAY_QUERY_NAMES).map(encode), fc.option(queryValue(undefined), { nil: undefined })),
    fc.tuple(fc.constantFrom('%', '%zz', '&', '=x'), fc.constant(undefined)),
  );
  return fc.tuple(fc.array(pair, { maxLength: 6 }), fc.nat({ max: 9 })).map(([pairs, shape]) => {
    if (!pairs.length) return shape === 0 ? '?' : '';
    // Repeat a parameter now and then: the server reads the last value.
    const all = shape === 1 ? [...pairs, ...pairs] : pairs;
    const joined = all
      .map(([name, value]) => (value === undefined ? name : `${name}=${value}`))
      .join(shape === 2 ? '&&' : '&');
    return `?${shape === 3 ? '&' : ''}${joined}`;
  });
}

/** Header values a client may send: printable ASCII and Latin-1, no line breaks. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constant('\t') },
    ),
    maxLength,
  });

/** Credentials that are not valid: no credential, other schemes, made-up and malformed bearer tokens, cookies. */
const madeUpCredential: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc
    .constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer pk_',
      `Bearer pk_${'A'.repeat(43)}`,
      'Basic dXNlcjpwYXNzd29yZA==',
      'Token abc',
      'Bearer a b',
      `Bearer ${'x'.repeat(8000)}`,
      'Bearer caf\u00e9',
    )
    .map((authorization) => ({ authorization })),
  headerText(60).map((token) => ({ authorization: `Bearer ${token}` })),
  fc
    .constantFrom(
      'dev_session=',
      'dev_session=garbage',
      `dev_session=${'a'.repeat(43)}`,
      'a=b; dev_session',
      ';;',
      'dev_session=%00',
    )
    .map((cookie) => ({ cookie })),
);

/** A valid caller's headers, and the same credential spelled as loosely as the rules allow (`bearer`, extra spaces). */
function validCredential(valid: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const token = /^Bearer (.+)$/.exec(valid.authorization ?? '')?.[1];
  const spellings = token
    ? [
        { ...valid, authorization: `bearer ${token}` },
        { ...valid, authorization: `Bearer  ${token}  ` },
      ]
    : [];
  return fc.oneof({ weight: 4, arbitrary: fc.constant(valid) }, ...spellings.map((spelled) => fc.constant(spelled)));
}

/**
 * Request headers: credentials of every shape (valid, made up, other
 * schemes, huge), entity tags, media types, request ids, forwarded-for,
 * origin, and one large header, all within Node's 16 KiB header limit (the
 * connection suite goes beyond it).
 */
function requestHeaders(valid: Record<string, string> | undefined): fc.Arbitrary<Record<string, string>> {
  const optional = <T>(arb: fc.Arbitrary<T>, freq = 1) => fc.option(arb, { nil: undefined, freq });
  const credential = valid
    ? fc.oneof({ weight: 2, arbitrary: validCredential(valid) }, { weight: 1, arbitrary: madeUpCredential })
    : madeUpCredential;
  return fc
    .record({
      credential,
      'if-none-match': optional(
        fc.oneof(fc.constantFrom('*', '"abc"', 'W/"abc"', '', ',,', 'x'.repeat(1025)), headerText(40)),
      ),
      'content-type': optional(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-16',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          ';;;',
          'application/javascript',
        ),
        3,
      ),
      accept: optional(fc.constantFrom('*/*', 'application/xml', 'text/html', 'application/json;q=0', '', 'garbage')),
      'x-request-id': optional(
        fc.oneof(fc.constantFrom('abc-123', '', 'a'.repeat(200), '../../etc/passwd'), headerText(40)),
      ),
      'x-forwarded-for': optional(fc.constantFrom('1.2.3.4', '1.2.3.4, 5.6.7.8', 'garbage', '::1', '')),
      origin: optional(fc.constantFrom('https://example.com', 'null', 'http://evil.example')),
      'accept-encoding': optional(fc.constantFrom('gzip', 'br', 'identity;q=0', '*')),
      'x-large': optional(headerText(6000)),
    })
    .map(({ credential, ...headers }) => ({
      ...credential,
      ...(Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
        string,
        string
      >),
    }));
}

/** A body for any operation (bodiless ones must ignore it): JSON, not JSON, empty, or large. */
const requestBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{}', '[]', 'null', '{"a":', 'not json', '\u0000', '{"__proto__":{"polluted":true}}'),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 500 }),
  fc.integer({ min: 60_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

/** Methods other than the operation's own: every standard one, plus tokens Node's parser refuses. */
const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE'];
const MADE_UP_METHODS = ['FOO', 'BREW', 'X', 'GETS', 'HEADX'];

/** A whole request aimed at one operation: its path with generated values, query, headers, maybe a body, maybe another method. */
export function requestFor(target: FuzzTarget, valid: Record<string, string> | undefined): fc.Arbitrary<WireRequest> {
  const pathParams = target.parameters.filter((p) => p.in === 'path');
  const segments = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathSegment(p)])) as Record<string, fc.Arbitrary<string>>,
  );
  const suffix = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('/', '//', '/extra', '/..', '%2F', '/.', '?#') },
  );
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(target.operation.method) },
    { weight: 3, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    { weight: 1, arbitrary: fc.constantFrom(...MADE_UP_METHODS) },
  );
  return fc
    .record({
      method,
      segments,
      suffix,
      query: queryString([...target.parameters, ...target.siblingQuery]),
      headers: requestHeaders(valid),
      body: fc.option(requestBody, { nil: undefined, freq: 4 }),
    })
    .map(({ method, segments, suffix, query, headers, body }) => {
      const path = `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? '')}${suffix}`;
      const wireHeaders = { ...headers };
      if (body === undefined) delete wireHeaders['content-type'];
      const fitted = fitQuery(path, query);
      return { method, path: `${path}${fitted}`, headers: fitHeaderBlock(`${path}${fitted}`, wireHeaders), body };
    });
}

/** Node refuses a request line and header block over 16 KiB (answered 431 by the connection suite's case). */
const HEADER_BLOCK_BUDGET = 15_000;

/** Cuts trailing query parameters until the request target fits half the budget. */
function fitQuery(path: string, query: string): string {
  let fitted = query;
  while (path.length + fitted.length > HEADER_BLOCK_BUDGET / 2 && fitted.includes('&'))
    fitted = fitted.slice(0, fitted.lastIndexOf('&'));
  return path.length + fitted.length > HEADER_BLOCK_BUDGET / 2 ? '' : fitted;
}

/** Drops the largest headers until the request line and headers fit the budget. */
function fitHeaderBlock(target: string, headers: Record<string, string>): Record<string, string> {
  const size = () =>
    target.length + Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  while (size() > HEADER_BLOCK_BUDGET && Object.keys(headers).length) {
    const [largest] = Object.entries(headers).sort(([, a], [, b]) => b.length - a.length)[0]!;
    delete headers[largest];
  }
  return headers;
}

/** JSON values for one body field: wrong types, nasty text, huge text. */
const bodyFieldValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyText,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, '', [], {}, [null], { $gt: '' }, '\u0000'),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 }),
);

/** Header-safe text (Latin-1 without control characters) made from any text, as Node's client can send it. */
const headerSafe = (text: string) =>
  Buffer.from(wellFormed(text), 'utf8')
    .toString('latin1')
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '');

/** One place of a request that gets the value no schema expects. */
type Spot =
  | { kind: 'path' | 'query' | 'header'; name: string; value: string }
  | { kind: 'body-field'; name: string; value: unknown }
  | { kind: 'body'; value: string };

/**
 * A request that is valid but for one spot: the operation's own method, its
 * path filled with what exists on the server (`known.path`: what the test
 * made for the operation), else the contract's examples (demo data), a valid
 * credential and the example body with what only the server knows
 * (`known.body`: the account's password), and then exactly one path value, query
 * parameter, header or body field replaced by a wrong or nasty value. Such a
 * request passes security and reaches the handlers and the store with a
 * value nothing expects (a NUL byte in a PostgreSQL query, a 3000-character
 * name).
 */
export function focusedRequestFor(
  target: FuzzTarget,
  valid: Record<string, string> | undefined,
  known: { path?: Record<string, string>; body?: Record<string, unknown> } = {},
): fc.Arbitrary<WireRequest> {
  const pathParams = target.parameters.filter((p) => p.in === 'path');
  const base = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const value = known.path?.[p.name];
        if (value !== undefined) return [p.name, fc.constant(encode(value))];
        const examples = examplesOf(p);
        return [p.name, (examples.length ? fc.constantFrom(...examples) : validText(p.schema)).map(encode)];
      }),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const body = target.operation.body === 'none' ? undefined : { ...exampleBody(target), ...known.body };
  const required = target.parameters
    .filter((p) => p.in === 'query' && p.required)
    .flatMap((p): [string, string][] => {
      const example = examplesOf(p)[0];
      return example === undefined ? [] : [[p.name, example]];
    });
  const spots: fc.Arbitrary<Spot>[] = [
    ...pathParams.map((p) =>
      fc
        .oneof(
          wrongText(p.schema).map(encode),
          nastyText.map(encode),
          fc.constantFrom(...WIRE_SEGMENTS),
          fc.constantFrom(...CONTROL_SEGMENTS),
          rawUtf8,
        )
        .map((value): Spot => ({ kind: 'path', name: p.name, value })),
    ),
    ...[...target.parameters, ...target.siblingQuery]
      .filter((p) => p.in === 'query')
      .map((p) => queryValue(p).map((value): Spot => ({ kind: 'query', name: p.name, value }))),
    ...target.parameters
      .filter((p) => p.in === 'header')
      .map((p) =>
        fc
          .oneof(wrongText(p.schema), nastyText, headerText(3000))
          .map((value): Spot => ({ kind: 'header', name: p.name, value: headerSafe(value) })),
      ),
    ...Object.keys(body ?? {}).map((name) =>
      bodyFieldValue.map((value): Spot => ({ kind: 'body-field', name, value })),
    ),
    ...(body ? [requestBody.map((value): Spot => ({ kind: 'body', value }))] : []),
  ];
  // An operation with nothing to vary still gets stray query parameters.
  if (!spots.length) spots.push(queryValue(undefined).map((value): Spot => ({ kind: 'query', name: 'source', value })));
  return fc.record({ base, spot: fc.oneof(...spots) }).map(({ base, spot }) => {
    const segments = spot.kind === 'path' ? { ...base, [spot.name]: spot.value } : base;
    const path = `${target.operation.serverPath ?? target.service.prefix}${target.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? '')}`;
    // The operation's required query parameters from their examples (a lookup by email hash, a search by name): without
    // them no request is valid. A spot in one of them replaces it.
    const pairs = [
      ...required
        .filter(([name]) => spot.kind !== 'query' || spot.name !== name)
        .map(([name, value]) => `${encode(name)}=${encode(value)}`),
      ...(spot.kind === 'query' ? [`${encode(spot.name)}=${spot.value}`] : []),
    ];
    const query = pairs.length ? `?${pairs.join('&')}` : '';
    const headers: Record<string, string> = {
      ...valid,
      ...(spot.kind === 'header' ? { [spot.name]: spot.value } : {}),
    };
    let wireBody: string | undefined;
    if (body) {
      headers['content-type'] = 'application/json';
      wireBody =
        spot.kind === 'body'
          ? spot.value
          : JSON.stringify(spot.kind === 'body-field' ? { ...body, [spot.name]: spot.value } : body);
    }
    const fitted = fitQuery(path, query);
    return {
      method: target.operation.method,
      path: `${path}${fitted}`,
      headers: fitHeaderBlock(`${path}${fitted}`, headers),
      body: wireBody,
    };
  });
}
