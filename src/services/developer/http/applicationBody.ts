import type { Application as ApplicationBody, IssuedKey } from '../../../../generated/developer/types.gen.js';
import type { Application } from '../../../accounts/applications.js';

/** An application as the contract shows it: its keys by prefix, never the keys themselves. */
export const applicationBody = (application: Application): ApplicationBody => ({
  id: application.id,
  name: application.name,
  description: application.description,
  website_url: application.websiteUrl,
  created_at: application.createdAt,
  keys: application.keys.map((key) => ({
    id: key.id,
    prefix: key.displayPrefix,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
  })),
});

/** The key just issued for an application, with the secret: the one answer that ever shows it. */
export function issuedKeyBody(application: Application, keyId: string, secret: string): IssuedKey {
  const key = application.keys.find((candidate) => candidate.id === keyId);
  if (!key) throw new Error('the issued key is not among the application keys');
  return { id: key.id, prefix: key.displayPrefix, created_at: key.createdAt, secret };
}
