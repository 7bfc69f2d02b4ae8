import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract, describeErrors, type Contract } from '../../src/platform/http/contract.js';
import { ContractRouter } from '../../src/platform/http/router.js';

interface ResponseObject {
  headers?: Record<string, { required?: boolean; schema?: object }>;
  content?: Record<string, { schema?: object }>;
}

interface LoadedService {
  prefix: string;
  /** Prefixes of the operations that declare a server of their own (the avatar images). */
  otherPrefixes: string[];
  contract: Contract;
  router: ContractRouter;
  /** Some operation declares `http_envelope`: the service applies it to every answer, errors and unrouted paths too. */
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

/**
 * The services and what their contracts say in prose rather than per
 * operation: publishing's endpoint layer answers `OPTIONS` on every path
 * with 200 and an empty `text/plain` body (its contract's "The endpoint
 * layer").
 */
const SERVICES = [
  { name: 'profiles', prefix: '/v3', otherPrefixes: ['/avatar'], ignoreTrailingSlash: false, answersOptions: false },
  { name: 'publishing', prefix: '/rest/v1.1', otherPrefixes: [], ignoreTrailingSlash: true, answersOptions: true },
  { name: 'developer', prefix: '/developer/v1', otherPrefixes: [], ignoreTrailingSlash: false, answersOptions: false },
];
/** The first bytes of every PNG file. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JSONP = /^\/\*\*\/([A-Za-z0-9_.]+)\(([\s\S]*)\);$/;
const TRUTHY = /^(1|t|true)$/i;

/**
 * Checks every answer a test sees against the contracts, independently of the
 * server's own response validation: the status is declared for the
 * operation (or, for an unrouted path, by some operation of that service),
 * the media type is declared, the body matches its schema (JSONP and
 * envelope answers are unwrapped and their inner body checked too) and
 * every required header is present and valid.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false });
  private readonly headerAjv = new Ajv2020({ strict: false, coerceTypes: true });
  private readonly cache = new Map<object, ValidateFunction>();
  private readonly headerCache = new Map<object, ValidateFunction>();
  /** How many answers were checked (a test can assert the checker really ran). */
  checked = 0;

  private constructor(private readonly services: LoadedService[]) {
    (addFormats as unknown as { default: (a: Ajv2020) => void }).default(this.ajv);
    (addFormats as unknown as { default: (a: Ajv2020) => void }).default(this.headerAjv);
  }

  static async load(): Promise<ContractChecker> {
    const services = await Promise.all(
      SERVICES.map(async ({ name, prefix, otherPrefixes, ignoreTrailingSlash, answersOptions }) => {
        const contract = await loadContract(fileURLToPath(new URL(`../../openapi/${name}.yaml`, import.meta.url)));
        return {
          prefix,
          otherPrefixes,
          contract,
          router: new ContractRouter(prefix, contract.operations, { ignoreTrailingSlash }),
          envelopes: contract.operations.some((op) => op.queryParams.has('http_envelope')),
          answersOptions,
        };
      }),
    );
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
        throw new Error(`${where}: OPTIONS must be answered 200 with an empty text/plain body, got ${mediaType} "${text.slice(0, 100)}"`);
      }
      return;
    }
    const unrouted = service.router.match(method === 'HEAD' ? 'GET' : method, url.pathname).kind === 'not-found';
    const response = this.findResponse(service, method, url.pathname, status);
    if (!response) throw new Error(`${where}: status ${status} is not declared in the contract`);

    // An unrouted path borrows some operation's 404 for its body; that answer's headers are not its own.
    for (const [name, header] of Object.entries(unrouted ? {} : (response.headers ?? {}))) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) throw new Error(`${where}: required header ${name} is missing`);
        continue;
      }
      if (header.schema && !this.headerValidator(header.schema)({ value })) {
        throw new Error(`${where}: header ${name}=${value} does not match its schema`);
      }
    }

    const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (status === 304 || status === 204 || method === 'HEAD' || text === '') {
      if (text !== '' && method !== 'HEAD') throw new Error(`${where}: a ${status} must have no body`);
      if (text === '' && response.content && status !== 304 && method !== 'HEAD') {
        // An empty body only where the contract declares one: a media type whose schema takes "".
        const empty = response.content[mediaType]?.schema;
        if (!empty) throw new Error(`${where}: body expected`);
        this.validate(empty, '', `${where} (empty ${mediaType} body)`);
      }
      return;
    }
    const content = response.content?.[mediaType];
    if (!content?.schema) throw new Error(`${where}: media type "${mediaType}" is not declared`);
    if (mediaType === 'application/javascript') {
      this.validate(content.schema, text, `${where} (JSONP)`);
      const inner = JSONP.exec(text);
      if (!inner) throw new Error(`${where}: not a JSONP body`);
      const json = response.content?.['application/json']?.schema;
      if (!json) throw new Error(`${where}: no JSON schema for the JSONP body`);
      this.checkJson(service, method, url, status, json, inner[2]!, where);
      return;
    }
    if (mediaType.startsWith('image/')) {
      if (mediaType === 'image/png' && bytes && !Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) {
        throw new Error(`${where}: the body is not a PNG image`);
      }
      return;
    }
    if (mediaType !== 'application/json') throw new Error(`${where}: unexpected media type ${mediaType}`);
    this.checkJson(service, method, url, status, content.schema, text, where);
  }

  private checkJson(service: LoadedService, method: string, url: RequestTarget, status: number, schema: object, text: string, where: string) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where}: body is not JSON: ${text.slice(0, 200)}`);
    }
    this.validate(schema, body, where);
    // The server reads the last value of a repeated parameter.
    if (service.envelopes && TRUTHY.test(url.searchParams.getAll('http_envelope').at(-1) ?? '')) {
      const envelope = body as { code: number; body: unknown };
      if (status !== 200) throw new Error(`${where}: an enveloped answer must have HTTP status 200`);
      const innerResponse = this.findResponse(service, method, url.pathname, envelope.code);
      const innerSchema = innerResponse?.content?.['application/json']?.schema;
      if (!innerSchema) throw new Error(`${where}: enveloped status ${envelope.code} is not declared`);
      this.validate(innerSchema, envelope.body, `${where} (envelope body, code ${envelope.code})`);
    }
  }

  private findResponse(service: LoadedService, method: string, path: string, status: number): ResponseObject | undefined {
    const paths = service.contract.dereferenced.paths as Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
    const match = service.router.match(method === 'HEAD' ? 'GET' : method, path);
    const lookup = (opPath: string, opMethod: string) => {
      const responses = paths[opPath]?.[opMethod.toLowerCase()]?.responses ?? {};
      return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    };
    if (match.kind === 'operation') return lookup(match.operation.path, match.operation.method);
    // Unrouted (404) or wrong method (405): the service's generic error answer, as some operation declares it.
    for (const op of service.contract.operations) {
      const found = lookup(op.path, op.method);
      if (found) return found;
    }
    return undefined;
  }

  private compile(schema: object): ValidateFunction {
    let validate = this.cache.get(schema);
    if (!validate) this.cache.set(schema, (validate = this.ajv.compile(schema)));
    return validate;
  }

  /** Header values arrive as text; they are coerced to the schema's type inside a holder object. */
  private headerValidator(schema: object): ValidateFunction {
    let validate = this.headerCache.get(schema);
    if (!validate) {
      validate = this.headerAjv.compile({ type: 'object', properties: { value: schema } });
      this.headerCache.set(schema, validate);
    }
    return validate;
  }

  private validate(schema: object, value: unknown, where: string) {
    const validate = this.compile(schema);
    if (!validate(value)) throw new Error(`${where}: body does not match the contract: ${describeErrors(validate.errors ?? [])}`);
  }
}

let shared: Promise<ContractChecker> | undefined;
/** One checker per test file. */
export const contractChecker = () => (shared ??= ContractChecker.load());

/**
 * A `fetch` that checks every answer against the contract before the test
 * sees it. Pass it to the generated SDK clients and use it for plain requests.
 */
export function contractFetch(checker: ContractChecker): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    checker.check(request.method, new URL(request.url), response.status, response.headers, new TextDecoder().decode(bytes), bytes);
    return new Response([101, 204, 205, 304].includes(response.status) || bytes.length === 0 ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
