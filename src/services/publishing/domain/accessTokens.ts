import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A new bearer token: the secret (shown once), its stored hash, and an ID to name it by. */
export interface IssuedAccessToken {
  id: string;
  token: string;
  tokenHash: string;
}

/** The hash under which a token is stored; the token itself is never stored or logged. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Issues a token of 256 random bits, base64url-encoded (43 characters). */
export function issueAccessToken(): IssuedAccessToken {
  const token = randomBytes(32).toString('base64url');
  return { id: randomUUID(), token, tokenHash: hashAccessToken(token) };
}
