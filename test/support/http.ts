import { request } from 'node:http';
import { connect } from 'node:net';

/** An answer as the wire carried it. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A request exactly as it goes on the wire: `path` is sent untouched (no `..` folding, no re-encoding). */
export interface WireRequest {
  method: string;
  /** Origin-form request target, percent-encoded by the caller: `/v3/profiles/..%2F?x=1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * How long `sendRequest` waits for a silent server before failing with a message naming the request: below
 * the suite's 60 s test timeout, so a hang is named rather than timed out, and far above any answer. It was
 * 10 s, which the first answer of an operation (its validators compiled then) or a sign-up (a password hash
 * and the strength check's dictionaries) outlasted on a loaded machine (`test:repeat --burn 4`): the fuzz case
 * `HEAD /rest/v1.1/sites/demo.example.com?author=0&=x&offset` of seed 20261122 was such a first answer.
 */
export const ANSWER_WAIT_MS = 45_000;

/**
 * Sends one request with `node:http`, which (unlike `fetch`) sends any method
 * token (`TRACE`, `FOO`) and any path as given. Each request uses a fresh
 * connection, so a connection-level failure cannot leak into the next one.
 */
export function sendRequest(baseUrl: string, wire: WireRequest, timeoutMs = ANSWER_WAIT_MS): Promise<WireAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: wire.method,
        path: wire.path,
        headers: wire.headers,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          resolve({ status: res.statusCode!, headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer to ${wire.method} ${wire.path.slice(0, 80)} within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    // Node frames a GET or HEAD body with nothing; say how long it is, as any real client would.
    if (wire.body !== undefined && !req.hasHeader('content-length') && !req.hasHeader('transfer-encoding')) {
      req.setHeader('Content-Length', Buffer.byteLength(wire.body));
    }
    req.end(wire.body);
  });
}

/** What a raw socket exchange produced: the bytes answered and how the connection ended. */
export interface RawExchange {
  /** Parsed answer, when one arrived. */
  answer: WireAnswer | undefined;
  /** Everything the server sent. */
  raw: string;
  /** `closed` when the server closed the connection, `timeout` when the wait ran out first. */
  ended: 'closed' | 'timeout';
  /** Milliseconds from connecting to the end. */
  elapsedMs: number;
}

/**
 * Writes raw bytes to the server (what no HTTP client would send: broken
 * request lines, oversized header blocks, requests that never finish) and
 * collects what comes back until the server closes the connection or
 * `waitMs` passes. `chunks` are written in order, `pauseMs` apart.
 */
export function rawExchange(
  baseUrl: string,
  chunks: readonly (string | Buffer)[],
  options: {
    waitMs?: number;
    pauseMs?: number;
    /** Awaited once connected, before the first chunk is written (the server has accepted the connection). */
    ready?: Promise<unknown>;
    /** Called once every chunk is written. */
    written?: () => void;
  } = {},
): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const waitMs = options.waitMs ?? 5000;
  return new Promise((resolve) => {
    const started = performance.now();
    const received: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    let settled = false;
    const finish = (ended: RawExchange['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const bytes = Buffer.concat(received);
      resolve({
        answer: parseAnswer(bytes),
        raw: bytes.toString('utf8'),
        ended,
        elapsedMs: performance.now() - started,
      });
    };
    const timer = setTimeout(() => finish('timeout'), waitMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', () => finish('closed'));
    // A reset while still writing (the server gave up on us) ends the exchange like a close.
    socket.on('error', () => finish('closed'));
    socket.on('connect', async () => {
      await options.ready;
      for (const [index, chunk] of chunks.entries()) {
        if (index > 0 && options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
        if (settled || socket.destroyed) return;
        socket.write(chunk);
      }
      options.written?.();
    });
  });
}

/** Parses an HTTP/1.1 answer (Content-Length or close-delimited body). */
function parseAnswer(bytes: Buffer): WireAnswer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1];
  if (!status) return undefined;
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const length = headers.get('content-length');
  const body = bytes.subarray(end + 4);
  return {
    status: Number(status),
    headers,
    text: (length === null ? body : body.subarray(0, Number(length))).toString('utf8'),
  };
}
