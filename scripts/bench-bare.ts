/**
 * The benchmark's baseline: a bare Koa app answering every request with the
 * bytes given in BARE_BODY (base64), BARE_TYPE and BARE_STATUS on BARE_PORT.
 */
import { createServer } from 'node:http';
import Koa from 'koa';

const body = Buffer.from(process.env.BARE_BODY ?? '', 'base64');
const type = process.env.BARE_TYPE ?? 'application/json';
const status = Number(process.env.BARE_STATUS ?? 200);
const app = new Koa();
app.use(async (ctx) => {
  ctx.status = status;
  ctx.type = type;
  ctx.body = body;
});
createServer(app.callback()).listen(Number(process.env.BARE_PORT), '127.0.0.1', () => process.send?.('ready'));
