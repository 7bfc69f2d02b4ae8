/**
 * The thin layer every SDK package adds over the client and functions that
 * @hey-api/openapi-ts generated (`scripts/build-sdk.ts` copies this file into
 * each package beside them; it is compiled there, not in this repository):
 * a client factory with the contract's base URL, and one answer per status
 * the contract declares, told apart by `status`, which hey-api does not offer.
 */
import { client } from './client.gen.js';
import { createClient as createBareClient, type Client, type Config, type TDataShape } from './client/index.js';
import type { Options } from './sdk.gen.js';

/**
 * The answer to a call: one variant per status the contract declares for the
 * operation. `ok` is the HTTP meaning (2xx); checking `ok` or `status`
 * narrows `data` or `error` to that status's type. Every variant has both
 * fields (the other one `undefined`), as hey-api's own answers do, so
 * `const { data, error } = await …` still works. A 3xx the contract declares
 * (`304` after `If-None-Match`, `302` with `redirect: 'manual'`) has neither.
 */
export type Result<Responses, Errors, Redirects extends number = never> =
  | { [S in keyof Responses & number]: { ok: true; status: S; data: Responses[S]; error: undefined; response: Response } }[keyof Responses & number]
  | { [S in keyof Errors & number]: { ok: false; status: S; data: undefined; error: Errors[S]; response: Response } }[keyof Errors & number]
  | { [S in Redirects]: { ok: false; status: S; data: undefined; error: undefined; response: Response } }[Redirects];

/** The options of a call: the generated SDK's, less the two that change what it returns (the layer decides those). */
export type CallOptions<TData extends TDataShape> = Omit<Options<TData, false>, 'throwOnError' | 'responseStyle'>;

/**
 * A status the contract does not declare for the operation (a proxy's 502,
 * say). Thrown rather than returned, so that `Result` stays exactly the
 * contract's statuses; a network failure throws fetch's own error.
 */
export class UnexpectedStatusError extends globalThis.Error {
  override readonly name = 'UnexpectedStatusError';
  constructor(
    readonly status: number,
    readonly response: Response,
    /** The body, parsed as JSON when it is JSON. */
    readonly body: unknown,
  ) {
    super(`unexpected HTTP status ${status} from ${response.url}`);
  }
}

/** The base URL of the default `client`: the contract's first server, with its variables at their defaults. */
export const defaultBaseUrl: string | undefined = client.getConfig().baseUrl;

/** A client of its own (another base URL, key, fetch, headers); unset, `baseUrl` is `defaultBaseUrl`. */
export const createClient = (config: Config = {}): Client => createBareClient({ baseUrl: defaultBaseUrl, ...config });

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
  const call = { ...options, throwOnError: false, responseStyle: 'fields' } as CallOptions<TDataShape> & { baseUrl?: string };
  if (server && call.baseUrl === undefined) call.baseUrl = operationBaseUrl(call.client ?? client, server);
  const { data, error, response } = await operation(call as never);
  if (!response) throw error;
  if (!statuses.includes(response.status)) throw new UnexpectedStatusError(response.status, response, error ?? data);
  const answer = response.ok
    ? { ok: true, status: response.status, data, error: undefined, response }
    : { ok: false, status: response.status, data: undefined, error: response.status < 400 ? undefined : error, response };
  return answer as R;
}

function operationBaseUrl(of: Client, server: OperationServer): string {
  if ('baseUrl' in server) return server.baseUrl;
  const base = of.getConfig().baseUrl ?? '';
  return base.endsWith(server.strip) ? base.slice(0, -server.strip.length) : base;
}
