// @store-independent
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa, { type Context } from 'koa';
import { inject } from 'light-my-request';
import { describe, expect, it } from 'vitest';
import { fastOperation, fastPath } from '../../../src/platform/pipeline/fastPath.js';
import { RATE_LIMIT_HEADERS } from '../../../src/platform/security/limits.js';

/**
 * The fast path's hand-over to Koa (src/platform/pipeline/fastPath.ts), on a
 * made-up operation: what it counted for a request it does not answer after
 * all is used by the pipeline's admit step, not counted again.
 * test/services/profiles/fast-path.test.ts holds the profile lookup's.
 */
function setUp(options: { counter: 'sync' | 'async'; refuse?: () => boolean }) {
  let body: object = { name: 'first' };
  let counted = 0;
  const refusal = new Error('refused');
  const write = (ctx: Context) => {
    counted++;
    if (options.refuse?.()) throw refusal;
    ctx.res.setHeader('X-RateLimit-Limit', '10');
    ctx.res.setHeader('X-RateLimit-Remaining', String(10 - counted));
  };
  const admit = Object.assign(
    (ctx: Context) => (options.counter === 'sync' ? write(ctx) : Promise.resolve().then(() => write(ctx))),
    { writes: RATE_LIMIT_HEADERS, limits: [] },
  );
  const operation = fastOperation<unknown>({
    service: 'made-up',
    operationId: 'read',
    takes: () => true,
    current: () => body,
    representation: (answered) => ({ bytes: Buffer.from(JSON.stringify(answered)), etag: '"tag"' }),
    notModified: () => false,
    admit,
    principalOf: () => ({}),
    audienceOf: () => 'everyone',
  });
  const handler = operation.noting((_input: { ctx?: Context }) => ({ status: 200, body }));
  /** What the pipeline does, in short: admit, handler, headers, bytes. */
  const slowCalls: string[] = [];
  const slow = async (req: IncomingMessage, res: ServerResponse) => {
    const ctx = { req, res } as unknown as Context;
    try {
      await operation.admitOnce(ctx, {});
    } catch (error) {
      slowCalls.push(error === refusal ? 'refused' : 'error');
      res.writeHead(429).end();
      return;
    }
    slowCalls.push('answered');
    const answer = handler({ ctx });
    res.setHeader('X-Request-Id', 'slow');
    res.setHeader('ETag', '"tag"');
    res.end(Buffer.from(JSON.stringify(answer.body)));
  };
  const listener = fastPath(
    new Koa(),
    (req, res) => void slow(req, res),
    [operation],
    () => {},
  );
  const get = () =>
    inject(listener, { method: 'GET', url: '/thing', remoteAddress: '127.0.0.1' }).then((answer) => ({
      status: answer.statusCode,
      names: (answer.raw.res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames(),
      headers: answer.headers,
      body: answer.payload,
    }));
  return {
    get,
    listener,
    slowCalls,
    counted: () => counted,
    change: (next: object) => {
      body = next;
    },
  };
}

describe('the fast path hands over to Koa what it counted', () => {
  it('answers a kept answer itself, counting once', async () => {
    const made = setUp({ counter: 'sync' });
    const first = await made.get();
    const second = await made.get();
    expect(made.slowCalls).toEqual(['answered']);
    expect(made.listener.counts.answered).toBe(1);
    expect(made.counted()).toBe(2);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-ratelimit-remaining']).toBe('8');
  });

  it('a request whose answer changed while the counter was asked goes to Koa, counted once', async () => {
    const made = setUp({ counter: 'async' });
    await made.get();
    // Changed after the fast path looked, before the counter answered.
    const pending = made.get();
    made.change({ name: 'second' });
    const changed = await pending;
    expect(made.slowCalls).toEqual(['answered', 'answered']);
    expect(made.counted()).toBe(2);
    expect(JSON.parse(changed.body)).toEqual({ name: 'second' });
    expect(changed.headers['x-ratelimit-remaining']).toBe('8');
    // As the step wrote them, letter case included.
    expect(changed.names).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']));
    expect(made.listener.counts.answered).toBe(0);
  });

  for (const counter of ['sync', 'async'] as const)
    it(`a refusal (${counter}) is the pipeline's to answer, counted once`, async () => {
      let refuse = false;
      const made = setUp({ counter, refuse: () => refuse });
      await made.get();
      refuse = true;
      const refused = await made.get();
      expect(refused.status).toBe(429);
      expect(made.slowCalls).toEqual(['answered', 'refused']);
      expect(made.counted()).toBe(2);
      expect(made.listener.counts.answered).toBe(0);
    });
});
