import { createHmac, timingSafeEqual } from 'node:crypto';
import { issueSecret, sha256Hex } from '../../../platform/security/secrets.js';

/** 32 random bytes, base64url: what the session cookie carries. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new session as issued: the token for the cookie, and the hash the store keeps. */
export interface IssuedSession {
  token: string;
  tokenHash: string;
}

/**
 * The stored form of a session token: its SHA-256 hex. A token carries 256
 * random bits, so a fast hash is enough, and a copy of the store gives no
 * usable cookie.
 */
export const hashSessionToken = sha256Hex;

/** True when a cookie value has the shape of a session token (others are refused without a lookup). */
export const isWellFormedSessionToken = (token: string): boolean => SESSION_TOKEN.test(token);

/** Issues a new session token: 256 bits from the system CSPRNG. */
export function issueSessionToken(): IssuedSession {
  const { secret: token, hash: tokenHash } = issueSecret();
  return { token, tokenHash };
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session
 * token. Only the holder of the cookie can compute it, it is fixed for the
 * session's life, and nothing about it needs storing. It reveals nothing
 * about the cookie, and differs from the hash the store keeps.
 */
export const csrfTokenFor = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('developer-dashboard csrf').digest('base64url');

/** Compares a presented CSRF token with the session's in constant time. */
export function csrfTokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A session's public id, as listed and ended through the API: derived from
 * the stored hash, so it needs no column, and it gives away neither the
 * token nor the hash the store looks sessions up by.
 */
export const sessionIdOf = (tokenHash: string): string => sha256Hex(`session-id\n${tokenHash}`).slice(0, 32);

/** The moment before which a session's last use makes it idle (`DEVELOPER_SESSION_IDLE_SECONDS` ago). */
export const idleSince = (idleSeconds: number): string => new Date(Date.now() - idleSeconds * 1000).toISOString();
