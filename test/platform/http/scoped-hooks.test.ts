// @store-independent
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { scopedHooks, type ScopedHook } from '../../../src/platform/pipeline/hooks.js';

/** A hook that notes every path it runs for and lets the request go on: it checks no prefix itself. */
function notingHook(prefixes: ScopedHook['prefixes'], seen: string[]): ScopedHook {
  return {
    prefixes,
    run: (ctx, next) => {
      seen.push(ctx.path);
      return next();
    },
  };
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** An app of the hooks in one step, then a 204 for whatever passes it. */
async function served(hooks: Parameters<typeof scopedHooks>[0]): Promise<string> {
  const app = new Koa();
  app.use(scopedHooks(hooks));
  app.use((ctx) => {
    ctx.status = 204;
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('scopedHooks: a service onRequest hook', () => {
  it("runs for its own prefixes only, never for another service's path or a path nobody owns", async () => {
    const profiles: string[] = [];
    const publishing: string[] = [];
    const url = await served([
      { service: 'profiles', hook: notingHook(['/v3', '/avatar'], profiles) },
      { service: 'publishing', hook: notingHook(['/rest/v1.1'], publishing) },
    ]);
    for (const path of ['/v3/profiles/alex', '/avatar/abc', '/rest/v1.1/sites/1', '/v3x', '/health', '/v3'])
      expect((await fetch(`${url}${path}`)).status).toBe(204);
    expect(profiles).toEqual(['/v3/profiles/alex', '/avatar/abc', '/v3']);
    expect(publishing).toEqual(['/rest/v1.1/sites/1']);
  });

  it('is refused when it claims a path another service claims: a path has one owner', () => {
    const hook = (prefixes: ScopedHook['prefixes']) => notingHook(prefixes, []);
    expect(() =>
      scopedHooks([
        { service: 'profiles', hook: hook(['/v3']) },
        { service: 'other', hook: hook(['/v3/profiles']) },
      ]),
    ).toThrow('The onRequest hooks of other and profiles both claim /v3/profiles');
    // One service may list a prefix under another of its own.
    expect(() => scopedHooks([{ service: 'profiles', hook: hook(['/v3', '/v3/x']) }])).not.toThrow();
  });
});
