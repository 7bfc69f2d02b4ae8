import type { Context } from 'koa';
import type { AdmitStep } from '../../../platform/pipeline/service.js';
import { csrfTokenMatches } from '../domain/sessionToken.js';
import { csrfFailed } from '../errors.js';
import type { DeveloperPrincipal } from '../operations.js';
import type { LoginThrottle } from '../rateLimit/loginThrottle.js';
import type { LimitStep } from '../../../platform/security/limits.js';

/**
 * The dashboard's admit steps, run after the session is resolved and before
 * the body is read; the policy table says which operation runs which.
 * "CSRF protection on every state-changing call": a cross-site `Origin` is
 * refused (log-in CSRF included), a call with a session must carry the
 * session's token in `X-CSRF-Token`, and sign-up and log-in are counted
 * against the client address ("login attempts rate limited"; the email
 * address is counted by the handler, once the body is read).
 */
export function admitSteps(requests: LimitStep<DeveloperPrincipal>, throttle: LoginThrottle, publicOrigin: string) {
  /** Refuses a request whose `Origin` is another site's. */
  const sameOrigin: AdmitStep<DeveloperPrincipal> = (ctx: Context) => {
    // Koa 3's `ctx.origin` is the request's Origin header, so this page's own origin is built from the host.
    const origin = ctx.get('origin');
    if (origin && origin !== `${ctx.protocol}://${ctx.host}` && origin !== publicOrigin) {
      throw csrfFailed('Cross-site request refused');
    }
  };
  /** A call with a session must carry the session's CSRF token. */
  const csrfToken: AdmitStep<DeveloperPrincipal> = (ctx, principal) => {
    if (principal.kind !== 'session') return;
    const presented = ctx.get('x-csrf-token');
    if (!presented) throw csrfFailed('Missing CSRF token');
    if (!csrfTokenMatches(presented, principal.session.csrfToken))
      throw csrfFailed('CSRF token does not match the session');
  };
  /** Sign-up and log-in attempts, counted against the client address. */
  const clientAttempts = throttle.attempts;
  return {
    /** Reads: counted per client address. */
    reads: requests,
    /** Calls that change something with a session: counted per client address, same origin, and the session's CSRF token. */
    changes: [requests, sameOrigin, csrfToken],
    /** Calls that start a session (no session or CSRF token yet): same origin, and attempts counted per client. */
    startsSession: [sameOrigin, clientAttempts],
    /** Calls with a session that ask for the password again: as `changes`, and counted per client as log-ins are. */
    checksPassword: [sameOrigin, csrfToken, clientAttempts],
  } as const;
}
