// @store-independent
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncodedJson } from '../../../src/platform/answers/encodedJson.js';
import { publishingPresenter } from '../../../src/services/publishing/http/present.js';
import type { ContractOperation } from '../../../src/platform/contract/types.js';

/**
 * Publishing's presenter shapes a body further (fields, the envelope, JSONP),
 * so an answer whose body is already encoded (`EncodedJson`, which the
 * handler types allow every service) is decoded first: never written as the
 * wrapper object.
 */
const post = { ID: 7, title: 'Kept', status: 'publish' };
const encoded = EncodedJson.of(post, () => '"tag"');
const flag = { boolean: true, array: false };
const declared: ContractOperation['queryParams'] = new Map([
  ['http_envelope', flag],
  ['pretty', flag],
  ['fields', { boolean: false, array: false }],
  ['callback', { boolean: false, array: false }],
]);
const present = publishingPresenter('*');

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  app.use((ctx) => {
    present(
      ctx,
      { status: 200, body: encoded, headers: { 'X-Kind': 'post' }, isError: false },
      { queryParams: declared },
    );
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

describe('an encoded body through the publishing presenter', () => {
  it('is written as the JSON it encodes', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(post);
  });

  it('is trimmed to `fields`, enveloped, and wrapped for a callback, as any body', async () => {
    expect(await (await fetch(`${base}/?fields=ID,title`)).json()).toEqual({ ID: 7, title: 'Kept' });
    expect(await (await fetch(`${base}/?http_envelope=1`)).json()).toEqual({
      code: 200,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'X-Kind', value: 'post' },
      ],
      body: post,
    });
    const script = await (await fetch(`${base}/?callback=cb&fields=ID`)).text();
    expect(script).toBe('/**/cb({"ID":7});');
  });
});
