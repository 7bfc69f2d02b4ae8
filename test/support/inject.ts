import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { inject } from 'light-my-request';

/** Statuses whose answers carry no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that hands each request to `server`'s request listeners (the app
 * and the platform's own, as `createHttpServer` installs them) without a
 * socket: `light-my-request`, Fastify's `inject()`, over Koa's
 * `app.callback()`. No TCP connection, no HTTP parsing on either side: what a
 * test of a flow needs of HTTP (method, path, headers, body, status) at a
 * fraction of a request's CPU. The server keeps listening, so what is about
 * the wire itself (framing, connections, timeouts) is still sent over it
 * (`sendRequest`, `rawExchange`, the global `fetch`). A request comes from
 * 127.0.0.1, as a test's request over loopback does (or from `remoteAddress`); redirects are not
 * followed (none of the APIs answers one).
 */
export function injectFetch(server: Server, { remoteAddress = '127.0.0.1' } = {}): typeof fetch {
  const dispatch = (req: IncomingMessage, res: ServerResponse) => void server.emit('request', req, res);
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = { 'user-agent': 'node', accept: '*/*' };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await inject(dispatch, {
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      authority: url.host,
      remoteAddress,
      headers,
      payload,
      // The body as bytes only: light-my-request otherwise also decodes every answer as text (an image too), the test's own CPU.
      payloadAsStream: true,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.stream()) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const rawPayload = Buffer.concat(chunks);
    const answered = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answered.append(name, String(one));
    }
    const empty = NO_BODY.has(answer.statusCode) || request.method === 'HEAD' || rawPayload.length === 0;
    return new Response(empty ? null : new Uint8Array(rawPayload), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers: answered,
    });
  };
}
