/**
 * A failure a client is told about: a status, a stable machine code and a
 * human message. Each service turns it into its own error body; handlers
 * throw it and never format error JSON themselves.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 404 for a path that no operation of the contract describes. */
export const routeNotFound = () => new ApiError(404, 'not_found', 'Not found');

/** 405 for a path the contract knows under other methods; `Allow` lists them. */
export const methodNotAllowed = (allow: string[]) =>
  new ApiError(405, 'method_not_allowed', 'Method not allowed', { Allow: allow.join(', ') });

/** 429 for a request beyond a limit that is no operation's own (docs, pages, unrouted paths); carries the rate-limit headers. */
export const tooManyRequests = (headers: Record<string, string>) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many requests; try again later', headers);

/** 400 naming the first bad parameter. */
export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request', message);

/** 500 with nothing internal in it; the cause is logged, never sent. */
export const internalError = () => new ApiError(500, 'internal_error', 'Internal server error');

/** 501 for an operation the contract describes but no handler serves yet. */
export const notImplemented = () => new ApiError(501, 'not_implemented', 'Not implemented');

/**
 * 503 when the store is down or too busy (see `isStoreUnavailable`): nothing
 * was changed, and the client may send the same request again after
 * `retryAfterSeconds`.
 */
export const serviceUnavailable = (retryAfterSeconds: number) =>
  new ApiError(503, 'service_unavailable', 'The service is temporarily unavailable; try again shortly', {
    'Retry-After': String(retryAfterSeconds),
  });

/**
 * The error body `{"error": "<human message>", "code": "<machine code>"}`,
 * as the profiles API and the dashboard write it (`Body` is the contract's
 * error type).
 */
export const messageAndCodeBody = <Body extends { error: string; code: string }>(error: ApiError): Body =>
  ({ error: error.message, code: error.code }) as Body;
