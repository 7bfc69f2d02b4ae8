import { createHash } from 'node:crypto';
import { sha256Hex } from '../platform/security/secrets.js';

/** An email address as the profile directory keys it: trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

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
