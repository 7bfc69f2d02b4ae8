import type { Middleware } from 'koa';
import { underPrefix } from './service.js';

/**
 * A service's step scoped to its own paths, as Fastify's encapsulation
 * scopes a plugin's hooks: `run` is called only for a request whose path is
 * one of `prefixes` or under one (`underPrefix`), never for another
 * service's.
 */
export interface ScopedHook {
  prefixes: readonly [string, ...string[]];
  run: Middleware;
}

/**
 * The services' `onRequest` hooks as one step of the app: each request's
 * path is looked up once, and only the hook whose prefix owns it runs; a path
 * no hook owns goes on untouched. Two services' hooks may not claim the same
 * path (a prefix of one under a prefix of the other): a path has one owner.
 */
export function scopedHooks(hooks: readonly { service: string; hook: ScopedHook }[]): Middleware {
  const owners = hooks.flatMap(({ service, hook }) =>
    hook.prefixes.map((prefix) => ({ prefix, owns: underPrefix(prefix), run: hook.run, service })),
  );
  for (const a of owners)
    for (const b of owners)
      if (a.service !== b.service && b.owns(a.prefix))
        throw new Error(`The onRequest hooks of ${a.service} and ${b.service} both claim ${a.prefix}`);
  if (owners.length === 0) return (_ctx, next) => next();
  return (ctx, next) => {
    const path = ctx.path;
    // A loop, not `find`: no closure made per request.
    for (const owner of owners) if (owner.owns(path)) return owner.run(ctx, next);
    return next();
  };
}
