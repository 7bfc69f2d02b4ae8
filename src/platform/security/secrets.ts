import { createHmac, hash, randomBytes } from 'node:crypto';

/**
 * SHA-256 of text (UTF-8) or bytes, as lower-case hex: how every secret is
 * stored (API keys, session and access tokens: they carry 256 random bits,
 * so a fast hash is enough and keeps every lookup cheap), and how email
 * addresses, counter keys and images are named. Node's one-shot `hash`
 * (no Hash object per call): a keyed lookup hashes its key on every request.
 */
export const sha256Hex = (value: string | Buffer): string => hash('sha256', value, 'hex');

/** A new secret as issued: the secret itself (shown once, never stored or logged) and the hash the store keeps. */
export interface IssuedSecret {
  secret: string;
  hash: string;
}

/** 32 random bytes as base64url: 43 characters. */
const SECRET_BYTES = 32;

/** Issues a secret of 256 bits from the system CSPRNG, base64url, after `prefix` (e.g. `pk_`), with its `sha256Hex`. */
export function issueSecret(prefix = ''): IssuedSecret {
  const secret = `${prefix}${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { secret, hash: sha256Hex(secret) };
}

/**
 * HMAC-SHA256 of text under a server secret, as lower-case hex: how a
 * counter key that names an address or an email is stored. Unlike a bare
 * SHA-256, nobody who reads the store can test a guess (`127.0.0.5`, an
 * address) without the secret; every instance with the same secret
 * computes the same key, so the counts stay shared.
 */
export const keyedHash =
  (secret: string) =>
  (value: string): string =>
    createHmac('sha256', secret).update(value).digest('hex');
