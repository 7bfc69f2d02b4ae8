/**
 * The thin layer every SDK package adds over the client and functions that
 * @hey-api/openapi-ts generated (`scripts/build-sdk.ts` copies this file into
 * each package beside them; it is compiled there, not in this repository):
 * a client factory with the contract's base URL, one answer per status the
 * contract declares, told apart by `status`, which hey-api does not offer,
 * and what a production caller needs around fetch that hey-api's client
 * leaves out (retries, a timeout, a `User-Agent`), given to hey-api as the
 * client's `fetch`, so its interceptors still see every request and answer.
 */
import { client as generatedClient } from './client.gen.js';
import { createClient as createBareClient, type Client, type Config, type TDataShape } from './client/index.js';
import { SDK_PACKAGE } from './package.js';
import type { Options } from './sdk.gen.js';

/** When and how a call is tried again. */
export interface RetryOptions {
  /** Attempts after the first; `0` never retries. Default 2. */
  retries?: number;
  /** The statuses tried again. Default `[429, 503]`. */
  statuses?: readonly number[];
  /** The first wait in ms when the answer has no `Retry-After`, doubled at each attempt (with jitter). Default 500. */
  backoff?: number;
  /** The longest wait in ms; an answer asking for longer (`Retry-After`) is returned as it is. Default 30 000. */
  maxDelay?: number;
  /**
   * Retries a method that is not idempotent (POST, DELETE, PATCH: a delete, a
   * restore). Taken only from a call's own options, never from the client's:
   * only the caller of one call knows that repeating it is harmless.
   */
  unsafe?: boolean;
}

/** What the SDK adds around fetch, for a client (`createClient`, `client.setConfig`) or one call. */
export interface SdkOptions {
  /** `false` never retries. Default: GET, HEAD, PUT and OPTIONS twice more on 429 and 503, honouring `Retry-After`. */
  retry?: RetryOptions | false;
  /** Ms each attempt may take until its answer's body is read, then it fails with a `TimeoutError`. `false`: none. Default 30 000. */
  timeout?: number | false;
  /** The `User-Agent` sent from Node (browsers set their own). Default `<package>/<version>`; `false` leaves fetch's. */
  userAgent?: string | false;
}

/** A client's configuration: hey-api's, and the SDK's own options. */
export type SdkConfig = Config & SdkOptions;

/** hey-api's client, configured with the SDK's options too. */
export type SdkClient = Omit<Client, 'getConfig' | 'setConfig'> & {
  getConfig: () => SdkConfig;
  setConfig: (config: SdkConfig) => SdkConfig;
};

/** The default client every call uses unless given another. */
export const client = generatedClient as SdkClient;

/** This package's `User-Agent`, e.g. `@contract-first/profiles/3.0.0`. */
export const defaultUserAgent = `${SDK_PACKAGE.name}/${SDK_PACKAGE.version}`;

const DEFAULTS = { retries: 2, statuses: [429, 503], backoff: 500, maxDelay: 30_000, timeout: 30_000 } as const;

/** Methods that may be sent twice with the effect of once (RFC 9110, 9.2.2), less DELETE: publishing's delete trashes, then deletes for good. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'OPTIONS']);

/** Node (where fetch lets a caller set `User-Agent`), told without Node's types. */
const inNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

/**
 * The answer to a call: one variant per status the contract declares for the
 * operation. `ok` is the HTTP meaning (2xx); checking `ok` or `status`
 * narrows `data` or `error` to that status's type. Every variant has both
 * fields (the other one `undefined`), as hey-api's own answers do, so
 * `const { data, error } = await …` still works. A 3xx the contract declares
 * (`304` after `If-None-Match`, `302` with `redirect: 'manual'`) has neither.
 */
export type Result<Responses, Errors, Redirects extends number = never> =
  | {
      [S in keyof Responses & number]: {
        ok: true;
        status: S;
        data: Responses[S];
        error: undefined;
        requestId: string | undefined;
        response: Response;
      };
    }[keyof Responses & number]
  | {
      [S in keyof Errors & number]: {
        ok: false;
        status: S;
        data: undefined;
        error: Errors[S];
        requestId: string | undefined;
        response: Response;
      };
    }[keyof Errors & number]
  | {
      [S in Redirects]: {
        ok: false;
        status: S;
        data: undefined;
        error: undefined;
        requestId: string | undefined;
        response: Response;
      };
    }[Redirects];

/**
 * The options of a call: the generated SDK's, less the two that change what
 * it returns (the layer decides those), and the SDK's own (`retry`,
 * `timeout`, `userAgent`), which take precedence over the client's.
 */
export type CallOptions<TData extends TDataShape> = Omit<
  Options<TData, false>,
  'throwOnError' | 'responseStyle' | 'client'
> &
  SdkOptions & { client?: SdkClient };

/**
 * A status the contract does not declare for the operation (a proxy's 502,
 * say). Thrown rather than returned, so that `Result` stays exactly the
 * contract's statuses; a network failure throws fetch's own error.
 */
export class UnexpectedStatusError extends globalThis.Error {
  override readonly name = 'UnexpectedStatusError';
  /** The answer's `X-Request-Id`: what the API's operators find the request by. */
  readonly requestId: string | undefined;
  constructor(
    readonly status: number,
    readonly response: Response,
    /** The body, parsed as JSON when it is JSON. */
    readonly body: unknown,
  ) {
    super(`unexpected HTTP status ${status} from ${response.url}`);
    this.requestId = response.headers.get('X-Request-Id') ?? undefined;
  }
}

/** The base URL of the default `client`: the contract's first server, with its variables at their defaults. */
export const defaultBaseUrl: string | undefined = client.getConfig().baseUrl;

/** A client of its own (another base URL, key, fetch, headers); unset, `baseUrl` is `defaultBaseUrl`. */
export const createClient = (config: SdkConfig = {}): SdkClient =>
  createBareClient({ baseUrl: defaultBaseUrl, ...config }) as SdkClient;

/** Where an operation with servers of its own is served, relative to the client's base URL. */
export type OperationServer =
  /** The client's base URL less this ending (`/avatar` is beside `/v3`, not under it). */
  | { strip: string }
  /** A server of its own, whatever the client's base URL. */
  | { baseUrl: string };

/** The fields hey-api's functions answer with (`responseStyle: 'fields'`); `response` is missing when fetch itself failed. */
interface Fields {
  data?: unknown;
  error?: unknown;
  response?: Response;
}

/**
 * Calls a generated SDK function and turns its answer into a `Result`.
 * `statuses` are the ones the contract declares for the operation.
 */
export async function settle<R>(
  operation: (options: never) => Promise<Fields>,
  options: CallOptions<TDataShape> | undefined,
  statuses: readonly number[],
  server?: OperationServer,
): Promise<R> {
  const call = { ...options, throwOnError: false, responseStyle: 'fields' } as CallOptions<TDataShape> & {
    baseUrl?: string;
    fetch?: typeof fetch;
  };
  const of = call.client ?? client;
  if (server && call.baseUrl === undefined) call.baseUrl = operationBaseUrl(of, server);
  const config = of.getConfig();
  call.fetch = sdkFetch(call.fetch ?? config.fetch ?? globalThis.fetch, {
    retry:
      call.retry === false || (call.retry === undefined && config.retry === false)
        ? false
        : { ...(config.retry || {}), ...(call.retry || {}), unsafe: call.retry ? call.retry.unsafe : undefined },
    timeout: call.timeout ?? config.timeout,
    userAgent: call.userAgent ?? config.userAgent,
  });
  const { data, error, response } = await operation(call as never);
  if (!response) throw error;
  if (!statuses.includes(response.status)) throw new UnexpectedStatusError(response.status, response, error ?? data);
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  const answer = response.ok
    ? { ok: true, status: response.status, data, error: undefined, requestId, response }
    : {
        ok: false,
        status: response.status,
        data: undefined,
        error: response.status < 400 ? undefined : error,
        requestId,
        response,
      };
  return answer as R;
}

/**
 * The fetch hey-api's client calls: `User-Agent` (Node only), a timeout per
 * attempt, and retries of idempotent methods (or of any, when the call says
 * `retry: { unsafe: true }`) on the retried statuses, waiting as the
 * answer's `Retry-After` says (seconds or a date), else by exponential
 * backoff with jitter. A wait longer than `maxDelay` is not made: that
 * answer is returned. The caller's `signal` ends waits and attempts alike.
 */
function sdkFetch(send: typeof fetch, options: SdkOptions): typeof fetch {
  const retry = options.retry === false ? undefined : { ...DEFAULTS, ...options.retry };
  const timeout = options.timeout === false ? undefined : (options.timeout ?? DEFAULTS.timeout);
  const userAgent = options.userAgent === false ? undefined : (options.userAgent ?? defaultUserAgent);
  return async (input, init) => {
    const request = new Request(input, init);
    if (inNode && userAgent && !request.headers.has('User-Agent')) request.headers.set('User-Agent', userAgent);
    const retries = retry && (IDEMPOTENT.has(request.method) || retry.unsafe) ? retry.retries : 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      const response = await attemptWithin(send, last ? request : request.clone(), timeout);
      if (last || !retry!.statuses.includes(response.status)) return response;
      const delay = retryDelay(response.headers.get('Retry-After'), retry!.backoff * 2 ** attempt);
      if (delay > retry!.maxDelay) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}

/** One attempt, failing with a `TimeoutError` after `timeout` ms (the body's reading included) or when the caller's signal aborts. */
async function attemptWithin(send: typeof fetch, request: Request, timeout: number | undefined): Promise<Response> {
  if (timeout === undefined) return send(request);
  const controller = new AbortController();
  const abort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) abort();
  else request.signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeout} ms`, 'TimeoutError')),
    timeout,
  );
  // A timer left for the body's reading must not keep Node running.
  (timer as { unref?: () => void }).unref?.();
  try {
    return await send(new Request(request, { signal: controller.signal }));
  } catch (error) {
    clearTimeout(timer);
    throw controller.signal.aborted ? controller.signal.reason : error;
  }
}

/** The wait before the next attempt: `Retry-After` (delta-seconds or an HTTP date) when given and readable, else `backoff` with full jitter between half and all of it. */
function retryDelay(retryAfter: string | null, backoff: number): number {
  if (retryAfter !== null) {
    if (/^\s*\d+\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return backoff / 2 + Math.random() * (backoff / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

function operationBaseUrl(of: SdkClient, server: OperationServer): string {
  if ('baseUrl' in server) return server.baseUrl;
  const base = of.getConfig().baseUrl ?? '';
  return base.endsWith(server.strip) ? base.slice(0, -server.strip.length) : base;
}
