import { hashApiKey, isWellFormedApiKey } from '../domain/apiKey.js';
import type { ProfilesPrincipal } from '../operations.js';
import type { ApiKeyRegistry } from '../store/profilesStore.js';

/**
 * Resolves a bearer token to the key holder, or null for a malformed,
 * unknown or revoked key (the caller is then answered as anonymous). The
 * key is looked up by its hash on every request, so a revocation takes
 * effect at once.
 */
export async function authenticateApiKey(keys: ApiKeyRegistry, token: string): Promise<ProfilesPrincipal | null> {
  if (!isWellFormedApiKey(token)) return null;
  const key = await keys.findActiveKey(hashApiKey(token));
  return key === undefined ? null : { kind: 'key', keyId: key.keyId, accountId: key.accountId };
}
