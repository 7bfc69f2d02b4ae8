// @store-independent
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { setHeader, setHeaders, varyOn } from '../../../src/platform/answers/headers.js';

/** A context with a real Node response (only `res` is used). */
function context(): Context {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  return { res } as Context;
}

describe('response headers written straight to the response', () => {
  it('sets headers, as given', () => {
    const ctx = context();
    setHeaders(ctx, { 'X-RateLimit-Limit': '100', ETag: '"abc"' });
    setHeader(ctx, 'Cache-Control', 'no-store');
    expect(ctx.res.getHeaders()).toEqual({ 'x-ratelimit-limit': '100', etag: '"abc"', 'cache-control': 'no-store' });
  });

  it('writes nothing once the headers are sent (as ctx.set)', () => {
    const ctx = context();
    Object.defineProperty(ctx.res, 'headersSent', { value: true });
    setHeaders(ctx, { A: '1' });
    setHeader(ctx, 'B', '2');
    varyOn(ctx, 'Origin');
    expect(ctx.res.getHeaderNames()).toEqual([]);
  });

  it('adds a field to Vary once, in any letter case, and nothing after *', () => {
    const ctx = context();
    varyOn(ctx, 'Origin');
    varyOn(ctx, 'Authorization');
    varyOn(ctx, 'origin');
    expect(ctx.res.getHeader('Vary')).toBe('Origin, Authorization');
    const star = context();
    star.res.setHeader('Vary', '*');
    varyOn(star, 'Authorization');
    expect(star.res.getHeader('Vary')).toBe('*');
    const spaced = context();
    spaced.res.setHeader('Vary', ['Accept-Encoding', ' authorization ']);
    varyOn(spaced, 'Authorization');
    // Already there (in another case, among spaces): not added again; the list may be joined into one value.
    expect(
      String(spaced.res.getHeader('Vary'))
        .split(',')
        .map((field) => field.trim().toLowerCase()),
    ).toEqual(['accept-encoding', 'authorization']);
  });
});
