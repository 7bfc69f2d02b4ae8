import type { Context, Middleware } from 'koa';

/** A dependency the instance needs to serve: a name and a check that throws when it is unreachable. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * `GET /healthz`: the process is up. `GET /readyz`: every dependency answers
 * (the store and, when configured, Redis), each within `timeoutMs`; 503 with
 * the failing names otherwise, so a load balancer takes the instance out.
 */
export function healthRoutes(checks: readonly ReadinessCheck[], timeoutMs: number): Middleware {
  // Not async: every other request passes straight on.
  return (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return Promise.resolve();
    }
    if (ctx.path !== '/readyz') return next();
    return readiness(ctx, checks, timeoutMs);
  };
}

async function readiness(ctx: Context, checks: readonly ReadinessCheck[], timeoutMs: number) {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
          }),
        ]);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'unavailable'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const ready = results.every(([, state]) => state === 'ok');
  ctx.status = ready ? 200 : 503;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) };
}
