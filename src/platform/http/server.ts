import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import type { PlatformConfig } from '../config.js';
import { ApiError } from './errors.js';
import { securityHeaderLines } from './securityHeaders.js';
import { ownedBy, type ServiceDefinition } from './service.js';

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
 */
export function createHttpServer(
  app: Koa,
  config: Pick<PlatformConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'publicUrl'>,
  services: readonly ErrorFormat[] = [],
): Server {
  // Node checks the timeouts on this interval (30 s by default, too coarse for them).
  const server = createServer({ connectionsCheckingInterval: 1000 }, app.callback());
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;

  // The app's nosniff and HSTS, on the answers written here too.
  const securityLines = securityHeaderLines({ https: config.publicUrl.startsWith('https:') });

  // The last request Node handed to the app on each connection.
  const lastExchange = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => lastExchange.set(req.socket, { req, res }));
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
    const last = lastExchange.get(socket);
    if (last && !last.req.complete) {
      // The app has this request but not its whole body (too slow, or badly framed):
      // answer it now unless the app already began to, in which case the connection just ends.
      if (!last.res.headersSent) answer(last.req);
      else if (last.res.writableFinished) socket.destroy();
      else last.res.once('close', () => socket.destroy());
      return;
    }
    // Bytes after `Connection: close` deserve no answer; anything else after a request gets one,
    // after the app's answer to that request.
    const reply = error.code === 'HPE_CLOSED_CONNECTION' ? () => socket.destroySoon() : () => answer();
    if (last && !last.res.writableFinished) last.res.once('close', reply);
    else reply();
  });
  return server;
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
  const line = request ? `${request.method} ${request.url}` : (error.rawPacket?.subarray(0, 2048).toString('latin1') ?? '');
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
