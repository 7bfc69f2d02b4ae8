/** Peer: a bare Koa route answering the bytes, no routing and no validation. */
import { createServer } from 'node:http';
import Koa from 'koa';
import { body, contentType, host, port } from './common.js';

const app = new Koa();
app.use(async (ctx) => {
  ctx.status = 200;
  ctx.type = contentType;
  ctx.body = body;
});
createServer(app.callback()).listen(port, host);
