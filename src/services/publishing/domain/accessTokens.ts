import { randomUUID } from 'node:crypto';
import { issueSecret, sha256Hex } from '../../../platform/security/secrets.js';

/** A new bearer token: the secret (shown once), its stored hash, and an ID to name it by. */
export interface IssuedAccessToken {
  id: string;
  token: string;
  tokenHash: string;
}

/** The hash under which a token is stored; the token itself is never stored or logged. */
export const hashAccessToken = sha256Hex;

/** Issues a token of 256 random bits, base64url-encoded (43 characters). */
export function issueAccessToken(): IssuedAccessToken {
  const { secret: token, hash: tokenHash } = issueSecret();
  return { id: randomUUID(), token, tokenHash };
}
