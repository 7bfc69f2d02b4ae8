import type { Context } from 'koa';

/** The session cookie's name (the contract's `sessionCookie` security scheme). */
export const SESSION_COOKIE = 'dev_session';

/**
 * Its name over HTTPS: a `__Host-` cookie is kept by a browser only when set with `Secure`, `Path=/` and no
 * `Domain`, from an HTTPS page of this very host, so no subdomain or plain-HTTP page can plant or overwrite it.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const cookieName = (secure: boolean) => (secure ? HOST_SESSION_COOKIE : SESSION_COOKIE);

/** How the session cookie is written: `Secure` when the deployment's public address is HTTPS. */
export interface SessionCookiePolicy {
  secure: boolean;
  maxAgeSeconds: number;
}

/**
 * The cookie attributes: `HttpOnly` (scripts never see the token),
 * `SameSite=Lax` (other sites' forms and scripts do not send it), `Path=/`
 * (the page at `/developers` and the API under `/developer/v1` share it),
 * and `Secure` over HTTPS. Written by hand rather than with Koa's cookies,
 * which refuse a `Secure` cookie when TLS ends at a proxy Koa does not trust.
 */
const attributes = (secure: boolean, maxAgeSeconds: number) =>
  `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** `Set-Cookie` for a new session. */
export const sessionCookie = (token: string, policy: SessionCookiePolicy): string =>
  `${cookieName(policy.secure)}=${token}; ${attributes(policy.secure, policy.maxAgeSeconds)}`;

/** `Set-Cookie` that makes the browser forget the session. */
export const clearedSessionCookie = (policy: SessionCookiePolicy): string =>
  `${cookieName(policy.secure)}=; ${attributes(policy.secure, 0)}`;

/** The session token the request's cookie carries, if any. */
export const sessionTokenOf = (ctx: Context): string | undefined =>
  ctx.cookies.get(HOST_SESSION_COOKIE) || ctx.cookies.get(SESSION_COOKIE) || undefined;
