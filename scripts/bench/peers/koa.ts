/**
 * Peer: a bare Koa route answering the bytes, no routing and no validation;
 * with BENCH_WITH_HEADERS=1 also the project's headers, each written
 * straight to Node's response (the cheapest way on Koa).
 */
import { createServer } from 'node:http';
import Koa from 'koa';
import { body, contentType, extraHeaders, host, port } from './common.js';

const names = Object.keys(extraHeaders);
const app = new Koa();
app.use(async (ctx) => {
  ctx.status = 200;
  for (const name of names) ctx.res.setHeader(name, extraHeaders[name]!);
  ctx.type = contentType;
  ctx.body = body;
});
createServer(app.callback()).listen(port, host);
