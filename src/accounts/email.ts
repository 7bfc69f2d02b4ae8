import { createHash } from 'node:crypto';
import { sha256Hex } from '../platform/security/secrets.js';

/** An email address as the profile directory keys it: trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Mail providers that deliver `c.a.r.o.l@` to `carol@`, by the domain they answer under. */
const DOTS_IGNORED: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The inbox an address reaches, as the caps count it (keys, keyed lookups,
 * emails): normalized, without a `+tag` (nearly every provider delivers
 * `carol+k1@` to `carol@`), and, at providers that ignore them, without the
 * dots of its local part and under the provider's one domain. Only for
 * counting: an account keeps the address it was given.
 */
export function canonicalInbox(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf('@');
  if (at < 1) return normalized;
  let local = normalized.slice(0, at).split('+')[0] || normalized.slice(0, at);
  let domain = normalized.slice(at + 1);
  const provider = DOTS_IGNORED[domain];
  if (provider) {
    local = local.replaceAll('.', '');
    domain = provider;
  }
  return `${local}@${domain}`;
}

/**
 * The two hashes a profile is found by: "the SHA256 hash of the user's
 * primary email address" and the legacy MD5 hash, both hex of
 * `email.trim().toLowerCase()`.
 */
export function emailHashes(email: string): { sha256: string; md5: string } {
  const normalized = normalizeEmail(email);
  return {
    sha256: sha256Hex(normalized),
    md5: createHash('md5').update(normalized).digest('hex'),
  };
}
