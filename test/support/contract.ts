import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describeErrors } from './schemaErrors.js';

/** YAML 1.2's core schema: JSON's types only (a date stays text). The oracle reads contracts itself. */
const parseYaml = (text: string): unknown => load(text, { schema: CORE_SCHEMA });
/*
 * The independent oracle: it reads the contracts itself (YAML, local `$ref`s,
 * its own path matcher) and imports nothing from `src/`
 * (test/contract/oracle.test.ts scans it), so a mistake in the
 * server's contract layer cannot hide the same mistake here. Schemas are
 * compiled lazily, the first time an answer needs one.
 */

type Node = Record<string, unknown>;

interface ResponseObject {
  headers?: Record<string, { required?: boolean; schema?: object }>;
  content?: Record<string, { schema?: object }>;
}

/** A response of the contract as the checker uses it: the object (local `$ref`s followed) and where it is. */
interface FoundResponse {
  response: ResponseObject;
  /** JSON Pointer of the response object in its document, for the schemas under it. */
  pointer: string;
}

/** One operation, as the checker's path matcher sees it. */
interface CheckedOperation {
  method: string;
  /** The path template as written, e.g. `/profiles/{profileIdentifier}`. */
  path: string;
  pattern: RegExp;
  /** How many `{…}` segments: literal paths win over templated ones. */
  templates: number;
  queryParams: ReadonlySet<string>;
}

/** A JSON Pointer token (`/` and `~` escaped). */
const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An OpenAPI document as the checker reads it: the parsed YAML, with its local `$ref`s followed on demand. */
class ContractDocument {
  constructor(
    readonly root: Node,
    /** The `$id` it is registered under in the checker's Ajvs. */
    readonly id: string,
  ) {}

  /** The node at a JSON Pointer (`#/components/…`). */
  at(pointer: string): unknown {
    return pointer
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (node, token) => (node as Node | undefined)?.[token.replaceAll('~1', '/').replaceAll('~0', '~')],
        this.root,
      );
  }

  /** The node at a pointer with its `$ref` chain followed, and the pointer it ends at. */
  follow(pointer: string): { node: Node | undefined; pointer: string } {
    let node = this.at(pointer) as Node | undefined;
    for (let hops = 0; typeof node?.$ref === 'string' && hops < 20; hops++) {
      pointer = node.$ref as string;
      if (!pointer.startsWith('#')) throw new Error(`${this.id}: only local $refs are supported, got ${pointer}`);
      node = this.at(pointer) as Node | undefined;
    }
    return { node, pointer };
  }

  /** A node that may be a `$ref`, followed. */
  resolve<T>(node: unknown): T {
    const ref = (node as Node | undefined)?.$ref;
    return (typeof ref === 'string' ? this.follow(ref).node : node) as T;
  }
}

/**
 * The checker's own path matcher: each operation's path template as a
 * regular expression under its base (the service's prefix, or the path of
 * a server the path item or operation declares itself). An integer path
 * parameter matches digits only; a trailing slash is ignored where the
 * service ignores it.
 */
class PathMatcher {
  /** In the document's order. */
  private readonly operations: CheckedOperation[] = [];
  /** Literal paths first (`/posts/new` before `/posts/{id}`). */
  private readonly byLiteralness: CheckedOperation[];
  /** Where the operations with a server of their own are served: the server's path and their path's literal start (`/avatar`). */
  readonly otherPrefixes: string[] = [];

  constructor(document: ContractDocument, prefix: string, ignoreTrailingSlash: boolean) {
    const paths = (document.root.paths ?? {}) as Record<string, Node>;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Node | undefined;
        if (!operation) continue;
        const parameters = [
          ...((item.parameters as unknown[]) ?? []),
          ...((operation.parameters as unknown[]) ?? []),
        ].map((p) => document.resolve<{ name: string; in: string; schema?: unknown }>(p));
        const integers = new Set(
          parameters
            .filter((p) => p.in === 'path' && document.resolve<{ type?: unknown }>(p.schema)?.type === 'integer')
            .map((p) => p.name),
        );
        const source = path.replace(/\{([^}]+)\}|[^{]+/g, (part, name?: string) =>
          name === undefined ? escapeRegExp(part) : integers.has(name) ? '\\d+' : '[^/]+',
        );
        const server = (
          (operation.servers ?? item.servers) as
            | { url: string; variables?: Record<string, { default: string }> }[]
            | undefined
        )?.[0];
        const base = server ? serverPath(server) : prefix;
        const own = server && `${base}${path.split('{')[0]!}`.replace(/\/+$/, '');
        if (own && own !== prefix && !this.otherPrefixes.includes(own)) this.otherPrefixes.push(own);
        this.operations.push({
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(`^${escapeRegExp(base)}${source}${ignoreTrailingSlash ? '/?' : ''}$`),
          templates: (path.match(/\{/g) ?? []).length,
          queryParams: new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name)),
        });
      }
    }
    this.byLiteralness = [...this.operations].sort((a, b) => a.templates - b.templates);
  }

  /** Every operation of the contract, in the document's order. */
  get all(): readonly CheckedOperation[] {
    return this.operations;
  }

  /** The operation for a method and path (a HEAD is a GET), `not-found` for a path no operation has, else `method-not-allowed`. */
  match(
    method: string,
    path: string,
  ): { kind: 'operation'; operation: CheckedOperation } | { kind: 'not-found' | 'method-not-allowed' } {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const onPath = this.byLiteralness.filter((op) => op.pattern.test(path));
    const operation = onPath.find((op) => op.method === wanted);
    if (operation) return { kind: 'operation', operation };
    return { kind: onPath.length ? 'method-not-allowed' : 'not-found' };
  }
}

/** The path of a server URL with its variables at their defaults, without a trailing slash (`''` for a bare origin). */
function serverPath(server: { url: string; variables?: Record<string, { default: string }> }): string {
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url).pathname.replace(/\/+$/, '');
}

interface LoadedService {
  prefix: string;
  /** Prefixes of the operations that declare a server of their own (the avatar images). */
  otherPrefixes: string[];
  document: ContractDocument;
  matcher: PathMatcher;
  /** Some operation declares `http_envelope`: the service applies it to the answers of those that do, errors included, and to unrouted paths. */
  envelopes: boolean;
  /** `OPTIONS` on any path is answered 200 with an empty `text/plain` body. */
  answersOptions: boolean;
}

/** What the checker reads of a request's URL; a `URL`, or `requestTarget(path)` for a path sent untouched. */
export type RequestTarget = Pick<URL, 'pathname' | 'search' | 'searchParams'>;

/**
 * The target of a request sent as raw bytes, as the server sees it: unlike
 * `new URL`, it folds no `..` segment and re-encodes nothing; a `#` (which
 * no client should send) ends it, as in Node's URL parser.
 */
export function requestTarget(wirePath: string): RequestTarget {
  const path = wirePath.split('#')[0]!;
  const query = path.indexOf('?');
  const search = query < 0 ? '' : path.slice(query);
  return { pathname: query < 0 ? path : path.slice(0, query), search, searchParams: new URLSearchParams(search) };
}

/** The folder of the contracts: every `openapi/<name>.yaml` is a service the checker knows. */
const CONTRACTS = new URL('../../openapi/', import.meta.url);

/**
 * What a contract says of every path rather than per operation, in its
 * `x-endpoint-layer` (publishing: a trailing slash is accepted; `OPTIONS`
 * on any path is answered 200 with an empty `text/plain` body).
 */
interface EndpointLayer {
  acceptsTrailingSlash?: boolean;
  answersOptions?: boolean;
}
/** The first bytes of every PNG file. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** How a file of each non-image type the contracts declare begins: a PDF's header; an MP3's ID3 tag or frame sync. */
const FILE_SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  'application/pdf': (bytes) => bytes.subarray(0, 5).toString('latin1') === '%PDF-',
  'audio/mpeg': (bytes) =>
    bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0),
};
const JSONP = /^\/\*\*\/([A-Za-z0-9_.]+)\(([\s\S]*)\);$/;
const TRUTHY = /^(1|t|true)$/i;
/** The headers of the rate limits: an answer that carries one must declare it (the limit step writes them on every answer it counted). */
const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] as const;

/**
 * Checks every answer a test sees against the contracts, independently of the
 * server's own response validation: the status is declared for the
 * operation (or, for an unrouted path, by some operation of that service),
 * the media type is declared, the body matches its schema (JSONP and
 * envelope answers are unwrapped and their inner body checked too),
 * every required header is present and valid, and every rate-limit header
 * the answer carries is declared on it.
 */
export class ContractChecker {
  // OpenAPI schemas carry keywords of their own (`example`, `discriminator`): not strict. The documents are
  // registered whole and each schema compiled as a reference into its document, the first time it is needed.
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, validateSchema: false });
  private readonly headerAjv = new Ajv2020({ strict: false, coerceTypes: true, validateSchema: false });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly headerCache = new Map<string, ValidateFunction>();
  /** How many answers were checked (a test can assert the checker really ran). */
  checked = 0;

  private constructor(private readonly services: LoadedService[]) {
    for (const ajv of [this.ajv, this.headerAjv]) {
      (addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
      for (const { document } of services)
        ajv.addSchema({ ...document.root, $id: document.id }, undefined, undefined, false);
    }
  }

  static async load(): Promise<ContractChecker> {
    const files = readdirSync(CONTRACTS).filter((file) => file.endsWith('.yaml'));
    const services = files.map((file): LoadedService => {
      const document = new ContractDocument(
        parseYaml(readFileSync(fileURLToPath(new URL(file, CONTRACTS)), 'utf8')) as Node,
        `https://oracle.invalid/${file}`,
      );
      // The service's prefix is the path of its (first) server URL.
      const [server] = (document.root.servers ?? []) as {
        url: string;
        variables?: Record<string, { default: string }>;
      }[];
      const prefix = server ? serverPath(server) : '';
      if (!prefix)
        throw new Error(`openapi/${file}: the checker needs a server URL with a path (the service's prefix)`);
      const layer = (document.root['x-endpoint-layer'] ?? {}) as EndpointLayer;
      const matcher = new PathMatcher(document, prefix, layer.acceptsTrailingSlash === true);
      return {
        prefix,
        otherPrefixes: matcher.otherPrefixes,
        document,
        matcher,
        envelopes: matcher.all.some((op) => op.queryParams.has('http_envelope')),
        answersOptions: layer.answersOptions === true,
      };
    });
    return new ContractChecker(services);
  }

  /**
   * Throws with a description of the first violation; returns silently for
   * paths outside the APIs. `bytes` (when the caller has them) are the body
   * as sent: an image is checked by them, not by its text.
   */
  check(method: string, url: RequestTarget, status: number, headers: Headers, text: string, bytes?: Uint8Array): void {
    const under = (prefix: string) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
    const service = this.services.find((s) => [s.prefix, ...s.otherPrefixes].some(under));
    if (!service) return;
    this.checked++;
    const where = `${method} ${url.pathname}${url.search} -> ${status}`;
    if (method === 'OPTIONS' && service.answersOptions) {
      const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (status !== 200 || text !== '' || mediaType !== 'text/plain') {
        throw new Error(
          `${where}: OPTIONS must be answered 200 with an empty text/plain body, got ${mediaType} "${text.slice(0, 100)}"`,
        );
      }
      return;
    }
    const unrouted = service.matcher.match(method, url.pathname).kind === 'not-found';
    const found = this.findResponse(service, method, url.pathname, status);
    if (!found) throw new Error(`${where}: status ${status} is not declared in the contract`);
    const { response, pointer } = found;
    const { document } = service;

    // An unrouted path borrows some operation's 404 for its body; that answer's headers are not its own.
    for (const name of Object.keys(unrouted ? {} : (response.headers ?? {}))) {
      const headerPointer = document.follow(`${pointer}/headers/${pointerToken(name)}`);
      const header = headerPointer.node as { required?: boolean; schema?: object } | undefined;
      const value = headers.get(name);
      if (value === null) {
        if (header?.required) throw new Error(`${where}: required header ${name} is missing`);
        continue;
      }
      if (header?.schema && !this.headerValidator(document, `${headerPointer.pointer}/schema`)({ value })) {
        throw new Error(`${where}: header ${name}=${value} does not match its schema`);
      }
    }
    // The other way round for the limits' headers: one the answer carries is declared on it.
    if (!unrouted) {
      const declared = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
      const undeclared = LIMIT_HEADERS.find((name) => headers.get(name) !== null && !declared.has(name.toLowerCase()));
      if (undeclared) throw new Error(`${where}: header ${undeclared} is sent but not declared on this answer`);
    }

    const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (status === 304 || status === 204 || method === 'HEAD' || text === '') {
      if (text !== '' && method !== 'HEAD') throw new Error(`${where}: a ${status} must have no body`);
      if (text === '' && response.content && status !== 304 && method !== 'HEAD') {
        // An empty body only where the contract declares one: a media type whose schema takes "".
        if (!response.content[mediaType]?.schema) throw new Error(`${where}: body expected`);
        this.validate(document, schemaAt(pointer, mediaType), '', `${where} (empty ${mediaType} body)`);
      }
      return;
    }
    const content = response.content?.[mediaType];
    if (!content?.schema) throw new Error(`${where}: media type "${mediaType}" is not declared`);
    if (mediaType === 'application/javascript') {
      this.validate(document, schemaAt(pointer, mediaType), text, `${where} (JSONP)`);
      const inner = JSONP.exec(text);
      if (!inner) throw new Error(`${where}: not a JSONP body`);
      if (!response.content?.['application/json']?.schema)
        throw new Error(`${where}: no JSON schema for the JSONP body`);
      this.checkJson(service, method, url, status, schemaAt(pointer, 'application/json'), inner[2]!, where);
      return;
    }
    if (mediaType.startsWith('image/')) {
      if (mediaType === 'image/png' && bytes && !Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) {
        throw new Error(`${where}: the body is not a PNG image`);
      }
      return;
    }
    // Any other file (a PDF, a sound): declared as binary, within its size, and of the type it says it is.
    const schema = content.schema as { format?: string; maxLength?: number };
    if (schema.format === 'binary') {
      const size = bytes?.length ?? Buffer.byteLength(text);
      if (schema.maxLength !== undefined && size > schema.maxLength)
        throw new Error(`${where}: a ${size}-byte file is over the declared ${schema.maxLength}`);
      const signature = FILE_SIGNATURES[mediaType];
      if (signature && bytes && !signature(Buffer.from(bytes)))
        throw new Error(`${where}: the body is not ${mediaType}`);
      return;
    }
    // Text (a redirect's line with its link, a plain 404) is checked as a string against its schema.
    if (mediaType.startsWith('text/')) {
      this.validate(document, schemaAt(pointer, mediaType), text, `${where} (${mediaType})`);
      return;
    }
    // JSON under a media type of its own (`application/jwk-set+json`) is JSON all the same.
    if (mediaType !== 'application/json' && !/^application\/[a-z0-9.-]+\+json$/.test(mediaType))
      throw new Error(`${where}: unexpected media type ${mediaType}`);
    this.checkJson(service, method, url, status, schemaAt(pointer, mediaType), text, where);
  }

  private checkJson(
    service: LoadedService,
    method: string,
    url: RequestTarget,
    status: number,
    schema: string,
    text: string,
    where: string,
  ) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where}: body is not JSON: ${text.slice(0, 200)}`);
    }
    this.validate(service.document, schema, body, where);
    // The server reads the last value of a repeated parameter.
    if (
      service.envelopes &&
      this.envelopesOn(service, method, url.pathname) &&
      TRUTHY.test(url.searchParams.getAll('http_envelope').at(-1) ?? '')
    ) {
      const envelope = body as { code: number; body: unknown };
      if (status !== 200) throw new Error(`${where}: an enveloped answer must have HTTP status 200`);
      const inner = this.findResponse(service, method, url.pathname, envelope.code);
      if (!inner?.response.content?.['application/json']?.schema)
        throw new Error(`${where}: enveloped status ${envelope.code} is not declared`);
      this.validate(
        service.document,
        schemaAt(inner.pointer, 'application/json'),
        envelope.body,
        `${where} (envelope body, code ${envelope.code})`,
      );
    }
  }

  /**
   * Whether the answer to a request comes in an envelope when it asks for one: an operation's answers when the
   * operation declares `http_envelope` (a media file's bytes never), an unrouted request's always (the service's
   * presenter reads the parameters the answering operation declares).
   */
  private envelopesOn(service: LoadedService, method: string, path: string): boolean {
    const match = service.matcher.match(method, path);
    return match.kind !== 'operation' || match.operation.queryParams.has('http_envelope');
  }

  /** The response the contract declares for a status (`200`, else `2XX`, else `default`) of the operation a request reaches. */
  private findResponse(
    service: LoadedService,
    method: string,
    path: string,
    status: number,
  ): FoundResponse | undefined {
    const { document } = service;
    const lookup = (opPath: string, opMethod: string): FoundResponse | undefined => {
      const responses = `#/paths/${pointerToken(opPath)}/${opMethod.toLowerCase()}/responses`;
      for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
        const { node, pointer } = document.follow(`${responses}/${key}`);
        if (node) return { response: node as ResponseObject, pointer };
      }
      return undefined;
    };
    const match = service.matcher.match(method, path);
    if (match.kind === 'operation') return lookup(match.operation.path, match.operation.method);
    // Unrouted (404) or wrong method (405): the service's generic error answer, as some operation declares it.
    for (const op of service.matcher.all) {
      const found = lookup(op.path, op.method);
      if (found) return found;
    }
    return undefined;
  }

  /** The validator of the schema at a pointer of a document, compiled the first time it is asked for. */
  private compile(document: ContractDocument, pointer: string): ValidateFunction {
    const ref = `${document.id}${pointer}`;
    let validate = this.cache.get(ref);
    if (!validate) this.cache.set(ref, (validate = this.ajv.compile({ $ref: ref })));
    return validate;
  }

  /** Header values arrive as text; they are coerced to the schema's type inside a holder object. */
  private headerValidator(document: ContractDocument, pointer: string): ValidateFunction {
    const ref = `${document.id}${pointer}`;
    let validate = this.headerCache.get(ref);
    if (!validate) {
      validate = this.headerAjv.compile({ type: 'object', properties: { value: { $ref: ref } } });
      this.headerCache.set(ref, validate);
    }
    return validate;
  }

  private validate(document: ContractDocument, pointer: string, value: unknown, where: string) {
    const validate = this.compile(document, pointer);
    if (!validate(value))
      throw new Error(`${where}: body does not match the contract: ${describeErrors(validate.errors ?? [])}`);
  }
}

/** The pointer of the schema of a media type under a response. */
const schemaAt = (response: string, mediaType: string) => `${response}/content/${pointerToken(mediaType)}/schema`;

let shared: Promise<ContractChecker> | undefined;
/** One checker per test file. */
export const contractChecker = () => (shared ??= ContractChecker.load());

/**
 * A `fetch` that checks every answer against the contract before the test
 * sees it. Pass it to the generated SDK clients and use it for plain requests.
 * `send` carries the request: the global `fetch` (over a socket), or
 * `injectFetch` (support/inject.ts: to the server's listeners, no socket).
 */
export function contractFetch(checker: ContractChecker, send: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await send(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    checker.check(
      request.method,
      new URL(request.url),
      response.status,
      response.headers,
      new TextDecoder().decode(bytes),
      bytes,
    );
    return new Response([101, 204, 205, 304].includes(response.status) || bytes.length === 0 ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
