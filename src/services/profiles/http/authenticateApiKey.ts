import { hashApiKey, isWellFormedApiKey } from '../../../accounts/apiKey.js';
import type { ProfilesPrincipal } from '../operations.js';
import type { ApiKeyRegistry } from '../../../accounts/apiKeys.js';

/**
 * Resolves a bearer token to the key holder, or null for a malformed,
 * unknown or revoked key (the caller is then answered as anonymous). The
 * key is looked up by its hash, through the instance's key cache (see
 * `cachedActiveKeys`).
 */
export async function authenticateApiKey(keys: Pick<ApiKeyRegistry, 'findActiveKey'>, token: string): Promise<ProfilesPrincipal | null> {
  if (!isWellFormedApiKey(token)) return null;
  const keyId = await keys.findActiveKey(hashApiKey(token));
  return keyId === undefined ? null : { kind: 'key', keyId };
}
