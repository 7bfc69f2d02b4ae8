import { issueSecret, sha256Hex } from '../platform/security/secrets.js';

const PREFIX = 'pk_';
/** `pk_` and 43 base64url characters: 32 random bytes. */
const API_KEY = /^pk_[A-Za-z0-9_-]{43}$/;
/** How much of a key is kept in clear to tell keys apart in listings. */
const DISPLAY_LENGTH = PREFIX.length + 8;

/** A new key as issued: the secret itself (shown once) and what the store keeps of it. */
export interface IssuedApiKey {
  key: string;
  hash: string;
  displayPrefix: string;
}

/**
 * The stored form of an API key: its SHA-256 hex. Keys carry 256 random
 * bits, so a fast hash is enough (no dictionary to guess from) and keeps
 * every keyed lookup cheap.
 */
export const hashApiKey = sha256Hex;

/** True when a bearer token has the shape of one of our keys (others are answered as anonymous without a lookup). */
export const isWellFormedApiKey = (token: string): boolean => API_KEY.test(token);

/** Issues a new random API key: 256 bits from the system CSPRNG, recognisable by its `pk_` prefix. */
export function issueApiKey(): IssuedApiKey {
  const { secret: key, hash } = issueSecret(PREFIX);
  return { key, hash, displayPrefix: key.slice(0, DISPLAY_LENGTH) };
}
