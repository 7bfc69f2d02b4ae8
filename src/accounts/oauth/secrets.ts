import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountsTables } from '../tables.js';
import { isUniqueViolation } from '../../platform/store/uniqueViolation.js';

/**
 * A secret every instance shares, made by the first instance that needs it
 * (a concurrent first maker loses on the primary key and reads the winner's).
 */
async function sharedSecret(db: Kysely<AccountsTables>, name: string, make: () => string): Promise<string> {
  const read = () => db.selectFrom('oauth_secrets').select('secret').where('name', '=', name).executeTakeFirst();
  const existing = await read();
  if (existing) return existing.secret;
  try {
    await db
      .insertInto('oauth_secrets')
      .values({ name, secret: make(), created_at: new Date().toISOString() })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return (await read())!.secret;
}

/** The authorization server's shared secrets: the key its cookies are signed with, and its signing key (a private JWK). */
export async function authorizationServerSecrets(
  db: Kysely<AccountsTables>,
): Promise<{ cookieKey: string; signingKey: Record<string, unknown> }> {
  const cookieKey = await sharedSecret(db, 'cookie-key', () => randomBytes(32).toString('base64url'));
  const jwk = await sharedSecret(db, 'signing-key', () =>
    JSON.stringify({
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
      use: 'sig',
      alg: 'ES256',
    }),
  );
  return { cookieKey, signingKey: JSON.parse(jwk) as Record<string, unknown> };
}
