/**
 * Peer: Koa + openapi-backend's `handleRequest`, the naive build of this
 * project's design: openapi-backend routes every request and validates its
 * parameters against the contract; the handler answers the bytes.
 * Responses are not validated (openapi-backend does that only when asked).
 */
import { createServer } from 'node:http';
import Koa, { type Context } from 'koa';
import { OpenAPIBackend } from 'openapi-backend';
import { badRequest, body, contentType, contract, host, port, prefix } from './common.js';

const api = new OpenAPIBackend({
  definition: contract() as never,
  apiRoot: prefix,
  // The 3.1 document fails openapi-backend's own 3.0 schema check; skip that check as the project does.
  quick: true,
  handlers: {
    getProfileById: (_c, ctx: Context) => {
      ctx.status = 200;
      ctx.type = contentType;
      ctx.body = body;
    },
    validationFail: (c, ctx: Context) => {
      ctx.status = 400;
      ctx.type = 'application/json';
      ctx.body = badRequest(c.validation.errors?.[0]?.message ?? 'invalid request');
    },
    notFound: (_c, ctx: Context) => {
      ctx.status = 404;
    },
    notImplemented: (_c, ctx: Context) => {
      ctx.status = 501;
    },
  },
});
await api.init();

const app = new Koa();
app.use((ctx) =>
  api.handleRequest(
    { method: ctx.method, path: ctx.path, query: ctx.querystring, headers: ctx.headers as Record<string, string> },
    ctx,
  ),
);
createServer(app.callback()).listen(port, host);
