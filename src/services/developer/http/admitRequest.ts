import type { Context } from 'koa';
import type { ContractOperation } from '../../../platform/http/contract.js';
import { csrfTokenMatches } from '../domain/sessionToken.js';
import { csrfFailed } from '../errors.js';
import type { DeveloperPrincipal } from '../operations.js';
import type { LoginThrottle } from '../rateLimit/loginThrottle.js';

/** Operations that start a session: no session or CSRF token yet, but counted against the client's attempts. */
const SESSION_STARTERS = new Set(['signUp', 'logIn']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The dashboard's `admit` hook, run after the session is resolved and before
 * the body is read. "CSRF protection on every state-changing call": a
 * cross-site `Origin` is refused (log-in CSRF included), a call with a
 * session must carry the session's token in `X-CSRF-Token`, and sign-up and
 * log-in are counted against the client address ("login attempts rate
 * limited"; the email address is counted by the handler, once the body is
 * read).
 */
export function admitRequest(throttle: LoginThrottle, publicOrigin: string) {
  return async (ctx: Context, operation: ContractOperation, principal: DeveloperPrincipal): Promise<void> => {
    if (SAFE_METHODS.has(ctx.method)) return;
    // Koa 3's `ctx.origin` is the request's Origin header, so this page's own origin is built from the host.
    const origin = ctx.get('origin');
    if (origin && origin !== `${ctx.protocol}://${ctx.host}` && origin !== publicOrigin) {
      throw csrfFailed('Cross-site request refused');
    }
    if (SESSION_STARTERS.has(operation.operationId)) {
      await throttle.admitClient(ctx.ip);
      return;
    }
    if (principal.kind !== 'session') return;
    const presented = ctx.get('x-csrf-token');
    if (!presented) throw csrfFailed('Missing CSRF token');
    if (!csrfTokenMatches(presented, principal.session.csrfToken)) throw csrfFailed('CSRF token does not match the session');
  };
}
