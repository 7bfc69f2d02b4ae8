import type { Context } from 'koa';
import { rateLimitExceeded } from '../errors.js';
import type { ProfilesPrincipal } from '../operations.js';
import type { RateLimitDecision, RateLimiter } from '../rateLimit/rateLimiter.js';
import { setHeaders } from '../../../platform/http/headers.js';
import { rateLimitClient } from '../../../platform/security/clientAddress.js';
import { RATE_LIMIT_HEADERS } from '../../../platform/security/clientLimit.js';

/** The rate-limit headers every 200, 304, 404 and 429 lookup answer carries. */
export const rateLimitHeaders = (decision: RateLimitDecision): Record<string, string> => ({
  'X-RateLimit-Limit': String(decision.limit),
  'X-RateLimit-Remaining': String(decision.remaining),
  'X-RateLimit-Reset': String(decision.resetsAt),
});

/**
 * The admit step of profile lookups (`getProfileById` in the policy table): counts each lookup against the caller
 * (per key, per account's inbox and per client address when keyed, per client address otherwise, IPv6 by its /64;
 * `ctx.ip` follows the trust-proxy setting) and sets the rate-limit headers. "Exceeding a limit
 * yields 429", with `Retry-After`.
 */
export function admitLookup(limiter: RateLimiter, onRateLimited?: (caller: 'anonymous' | 'key') => void) {
  const step = (ctx: Context, principal: ProfilesPrincipal): void | Promise<void> => {
    const decision = limiter.take(
      principal.kind === 'key'
        ? { kind: 'key', keyId: principal.keyId, inbox: principal.inbox, ip: rateLimitClient(ctx.ip) }
        : { kind: 'anonymous', ip: rateLimitClient(ctx.ip) },
    );
    // Counted in this process, the decision is at hand: no asynchronous step on every lookup.
    if (decision instanceof Promise) return decision.then((decided) => admit(ctx, principal, decided, onRateLimited));
    admit(ctx, principal, decision, onRateLimited);
  };
  return Object.assign(step, { writes: RATE_LIMIT_HEADERS });
}

/** Sets the rate-limit headers of an allowed lookup; refuses one over its limit (429). */
function admit(ctx: Context, principal: ProfilesPrincipal, decision: RateLimitDecision, onRateLimited?: (caller: 'anonymous' | 'key') => void) {
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    onRateLimited?.(principal.kind === 'key' ? 'key' : 'anonymous');
    throw rateLimitExceeded({ ...headers, 'Retry-After': String(decision.retryAfter) });
  }
  setHeaders(ctx, headers);
}
