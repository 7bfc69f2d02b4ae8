/** The platform's request handler for its JavaScript client (`wpcom-xhr-request` ships no types). */
declare module 'wpcom-xhr-request' {
  /** The request as the `wpcom` client describes it, plus where to send it. */
  export interface XhrRequestParams {
    path: string;
    method?: string;
    apiVersion?: string;
    apiNamespace?: string;
    /** Scheme, host and port of the API (the platform's public host by default). */
    proxyOrigin?: string;
    token?: string;
    query?: string | Record<string, unknown>;
    body?: unknown;
  }
  export type XhrCallback = (
    error: (Error & Record<string, unknown>) | null,
    body?: unknown,
    headers?: Record<string, unknown>,
  ) => void;
  export default function wpcomXhrRequest(params: XhrRequestParams | string, callback: XhrCallback): unknown;
}
