import { hashApiKey, isWellFormedApiKey } from '../../../accounts/apiKey.js';
import type { ProfilesPrincipal } from '../operations.js';
import type { ActiveKey, ApiKeyRegistry } from '../../../accounts/apiKeys.js';
import type { ActiveKeyCache } from '../../../accounts/apiKeyCache.js';

/**
 * Resolves a bearer token to the key holder, or null for a malformed,
 * unknown or revoked key (the caller is then answered as anonymous). The
 * key is looked up by its hash, through the instance's key cache (see
 * `cachedActiveKeys`).
 */
export function authenticateApiKey(
  keys: Pick<ApiKeyRegistry, 'findActiveKey'> & Partial<Pick<ActiveKeyCache, 'knownActiveKey'>>,
  token: string,
): ProfilesPrincipal | null | Promise<ProfilesPrincipal | null> {
  if (!isWellFormedApiKey(token)) return null;
  const hash = hashApiKey(token);
  // A key the cache already knows is resolved at once, without an asynchronous step.
  const known = keys.knownActiveKey?.(hash);
  if (known) return principalOf(known.value);
  return keys.findActiveKey(hash).then(principalOf);
}

const principalOf = (key: ActiveKey | undefined): ProfilesPrincipal | null =>
  key === undefined ? null : { kind: 'key', keyId: key.keyId, accountId: key.accountId, inbox: key.inbox };
