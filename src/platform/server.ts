import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { PlatformConfig } from './config.js';
import { ApiError } from './answers/errors.js';
import { securityHeaderLines } from './answers/securityHeaders.js';
import { ownedBy, type ServiceDefinition } from './pipeline/service.js';
import { rateLimitClient } from './security/clientAddress.js';

/** The service a connection-level answer is given for, when the request line says which. */
type ErrorFormat = Pick<ServiceDefinition, 'prefix' | 'otherPrefixes' | 'errorBody'>;

/** Method and path at the start of the bytes Node failed to parse (`GET /v3/x?y HTTP/1.1` gives `GET`, `/v3/x`). */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^\s?#]*)/;

/**
 * The HTTP server around the app, with the limits that protect it from
 * slow or malformed clients: headers must arrive within `headersTimeoutMs`,
 * an idle connection stays open `keepAliveTimeoutMs`,
 * a whole request within `requestTimeoutMs`, and a request Node cannot parse
 * (oversized or malformed headers, an unknown method) gets a JSON error
 * instead of a bare reset: in the error format of the service its request
 * line names (`services`), else `{"error", "code"}`.
 *
 * Such an answer never overtakes or follows the app's answer to a request
 * on the same connection: it waits for an answer in progress, and a request
 * that was already answered (its body too slow or followed by bytes after
 * `Connection: close`) gets no second answer; the connection is closed.
 * A timeout is decided only once the bytes that had arrived are read, so a
 * loop held past the timeout does not time out a request that came in time.
 *
 * Connections are bounded: at most `maxConnections` open (Node drops the
 * next ones at once), and at most `maxConnectionsPerAddress` from one client
 * address (an IPv6 address by its /64), so that sockets opened and left
 * silent from one address cannot take the descriptors everyone else needs.
 * `drain()` is the shutdown's half: connections without a request in
 * progress close at once, and those with one close once it is answered.
 */
export function createHttpServer(
  app: { callback(): RequestListener },
  config: Pick<
    PlatformConfig,
    | 'headersTimeoutMs'
    | 'requestTimeoutMs'
    | 'keepAliveTimeoutMs'
    | 'publicUrl'
    | 'maxConnections'
    | 'maxConnectionsPerAddress'
  >,
  services: readonly ErrorFormat[] = [],
): HttpServer {
  // Node checks the timeouts on this interval (30 s by default, too coarse for them).
  const server = createServer({ connectionsCheckingInterval: 1000 });
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;

  // Open connections per client address; one over the cap is closed before a byte is read.
  const perAddress = new Map<string, number>();
  const cap = config.maxConnectionsPerAddress;
  server.on('connection', (socket: Socket) => {
    if (cap <= 0) return;
    const address = rateLimitClient(socket.remoteAddress ?? '');
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > cap) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    socket.once('close', () => {
      const left = perAddress.get(address)! - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });

  // Each connection's last request: its answer is in progress until written (`writableFinished`).
  // One map entry a request, and no listener: this runs on every request.
  const lastAnswer = new WeakMap<Socket, ServerResponse>();
  const sockets = new Set<Socket>();
  let draining = false;
  /** Closes a connection once the answer in progress on it is written, with no keep-alive before. */
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.shouldKeepAlive = false;
    // The request's socket: Node detaches the answer's own once it is written.
    const socket = res.req.socket;
    res.once('finish', () => socket.destroySoon());
  };
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before the app's listener: an answer it writes at once is already marked to close.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    lastAnswer.set(req.socket, res);
    if (draining) closeAfter(res);
  });
  server.on('request', app.callback());

  // The app's nosniff and HSTS, on the answers written here too.
  const securityLines = securityHeaderLines({ https: config.publicUrl.startsWith('https:') });

  // Node may report several parse errors for one connection; the first one decides.
  const failing = new WeakSet<Socket>();

  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (failing.has(socket)) return;
    failing.add(socket);
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const answer = (request?: IncomingMessage) => {
      if (socket.writable) socket.end(connectionErrorAnswer(error, services, securityLines, request));
      else socket.destroy();
    };
    const last = lastAnswer.get(socket);
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return decide(socket, last, error, answer);
    // Node checks its timeouts in the loop's timer phase, before it reads the sockets: after the loop
    // was held, bytes that arrived in time may still be unread. Read them first (one turn), then decide.
    setImmediate(() => {
      const now = lastAnswer.get(socket);
      if (now === last || !now?.req.complete) return decide(socket, now, error, answer);
      // A whole request came in time: the app answers it, then the connection closes (its error is reported).
      if (now.writableFinished) socket.destroySoon();
      else closeAfter(now);
    });
  });

  const decide = (
    socket: Socket,
    last: ServerResponse | undefined,
    error: NodeJS.ErrnoException,
    answer: (request?: IncomingMessage) => void,
  ) => {
    if (last && !last.req.complete) {
      // The app has this request but not its whole body (too slow, or badly framed):
      // answer it now unless the app already began to, in which case the connection just ends.
      if (!last.headersSent) answer(last.req);
      else if (last.writableFinished) socket.destroy();
      else last.once('close', () => socket.destroy());
      return;
    }
    // Bytes after `Connection: close` deserve no answer; anything else after a request gets one,
    // after the app's answer to that request.
    const reply = error.code === 'HPE_CLOSED_CONNECTION' ? () => socket.destroySoon() : () => answer();
    if (last && !last.writableFinished) last.once('close', reply);
    else reply();
  };
  return Object.assign(server, {
    drain() {
      draining = true;
      for (const socket of sockets) {
        const res = lastAnswer.get(socket);
        if (!res || res.writableFinished) socket.destroy();
        else closeAfter(res);
      }
    },
  });
}

/** The HTTP server, and the half of a shutdown that closes its connections. */
export interface HttpServer extends Server {
  /**
   * Closes every connection without a request in progress at once (idle
   * keep-alive ones, and those whose request has not fully arrived), and each
   * other one as soon as its answer is written; the answers in progress are
   * not cut short. Call it after `close()`, which stops new connections.
   */
  drain(): void;
}

/**
 * The raw HTTP answer to a request Node could not parse or that came too
 * slowly; `request` when Node had parsed its head, else its request line is
 * read from the bytes that failed.
 */
function connectionErrorAnswer(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  services: readonly ErrorFormat[],
  securityLines: string,
  request?: IncomingMessage,
): string {
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'invalid_request', 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'Request timed out']
        : [400, 'Bad Request', 'invalid_request', 'Malformed request'];
  const line = request
    ? `${request.method} ${request.url}`
    : (error.rawPacket?.subarray(0, 2048).toString('latin1') ?? '');
  const [, method, path] = REQUEST_LINE.exec(line) ?? [];
  const service = path && services.find((candidate) => ownedBy(candidate)(path));
  const neutral = { error: message, code };
  let body: string;
  try {
    body = JSON.stringify(service ? service.errorBody(new ApiError(status, code, message)) : neutral);
  } catch {
    // This runs in a socket event: a throw here would take the whole process down.
    body = JSON.stringify(neutral);
  }
  const head = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n${securityLines}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  // An answer to HEAD has no body, whatever went wrong.
  return method === 'HEAD' ? head : `${head}${body}`;
}
