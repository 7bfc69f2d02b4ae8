import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import type { Config } from './config.js';

/** The error body a connection-level failure gets, before any service could answer. */
const clientErrorBody = (status: number, message: string) =>
  JSON.stringify({ error: message, code: status === 408 ? 'request_timeout' : 'invalid_request' });

/**
 * The HTTP server around the app, with the limits that protect it from
 * slow or malformed clients: headers must arrive within `headersTimeoutMs`,
 * a whole request within `requestTimeoutMs`, and a request Node cannot parse
 * (oversized or malformed headers) gets a JSON error instead of a bare reset.
 */
export function createHttpServer(app: Koa, config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'>): Server {
  // Node checks the timeouts on this interval (30 s by default, too coarse for them).
  const server = createServer({ connectionsCheckingInterval: 1000 }, app.callback());
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timed out']
          : [400, 'Bad Request', 'Malformed request'];
    const body = clientErrorBody(status, message);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
