import type { Context, Middleware } from 'koa';

/** A dependency the instance needs to serve: a name and a check that throws when it is unreachable. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * The instance serves without it, in a degraded way (Redis: rate limits
   * counted per instance): its failure is reported, but the instance stays
   * ready, so a load balancer does not drain every instance at once.
   */
  optional?: boolean;
}

/**
 * `GET /healthz`: the process is up. `GET /readyz`: every dependency answers
 * (the store and, when configured, Redis), each within `timeoutMs`:
 * `{"status": "ready"}`. When only optional ones fail (Redis) it is still
 * 200, `{"status": "degraded"}` with the failing names; when a required one
 * fails (the store), 503 `{"status": "unavailable"}`, so a load balancer
 * takes the instance out.
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
    checks.map(async ({ name, check, optional = false }) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
          }),
        ]);
        return [name, 'ok', optional] as const;
      } catch {
        return [name, 'unavailable', optional] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failing = results.filter(([, state]) => state !== 'ok');
  const ready = failing.every(([, , optional]) => optional);
  ctx.status = ready ? 200 : 503;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    status: !ready ? 'unavailable' : failing.length ? 'degraded' : 'ready',
    checks: Object.fromEntries(results.map(([name, state]) => [name, state])),
  };
}
