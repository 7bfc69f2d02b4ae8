import type { Kysely } from 'kysely';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { sha256Hex } from '../../platform/security/secrets.js';
import type { AccountsTables } from '../tables.js';
import { isNativeClient } from './clients.js';

/** The stored form of a code's, token's, session's or interaction's id: its SHA-256 hex (the id of a code or token is the secret). */
export const hashOAuthId = sha256Hex;

/** The OAuth client an application is: public (no secret; PKCE required), authorization code and refresh tokens only. */
export interface ClientMetadata {
  client_id: string;
  client_name: string;
  client_uri?: string;
  /** `native` when a redirect URI is a loopback or an app's own scheme (`isNativeClient`), else `web`. */
  application_type: 'native' | 'web';
  redirect_uris: string[];
  javascript_origins: string[];
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
  id_token_signed_response_alg: 'ES256';
}

/** An application as an OAuth client, when it registered at least one redirect URI. */
export async function findClient(db: Kysely<AccountsTables>, clientId: string): Promise<ClientMetadata | undefined> {
  const row = await db
    .selectFrom('api_applications')
    .select(['id', 'name', 'website_url', 'redirect_uris', 'javascript_origins'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!row) return undefined;
  const redirectUris = JSON.parse(row.redirect_uris) as string[];
  if (!redirectUris.length) return undefined;
  return {
    client_id: row.id,
    client_name: row.name,
    ...(row.website_url ? { client_uri: row.website_url } : {}),
    // The library takes an app's own scheme, and a loopback redirect on any port, only from a native client.
    application_type: isNativeClient(redirectUris) ? 'native' : 'web',
    redirect_uris: redirectUris,
    javascript_origins: JSON.parse(row.javascript_origins) as string[],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // The server's one signing key (`secrets.ts`) is an EC P-256 key.
    id_token_signed_response_alg: 'ES256',
  };
}

/**
 * oidc-provider's adapter interface on the project's store (SQLite or
 * PostgreSQL): one table for every model, each record found by the SHA-256
 * of its id, its payload kept without the id (`jti`), so no code, token or
 * session id is stored in clear. `Client` reads the applications, and
 * counts each request that names one (`countClientUse`).
 */
export function kyselyOAuthAdapter(
  db: Kysely<AccountsTables>,
  countClientUse: (clientId: string) => Promise<void>,
  /** Told after a token or grant is destroyed (RFC 7009 revocation, a replayed code or refresh token), so caches forget at once. */
  onRevoked: () => void = () => {},
): (model: string) => Adapter {
  return (model) => {
    if (model === 'Client') {
      return {
        // Every request to the authorization, token and revocation endpoints names its client: counted per application here.
        find: async (id) => {
          await countClientUse(id);
          return findClient(db, id) as Promise<AdapterPayload | undefined>;
        },
        upsert: async () => {},
        findByUserCode: async () => undefined,
        findByUid: async () => undefined,
        consume: async () => {},
        destroy: async () => {},
        revokeByGrantId: async () => {},
      };
    }
    /** Deletes a grant with its codes and tokens, and tells the caches (a revocation, or a replay). */
    const revokeByGrantId = async (grantId: string) => {
      await revokeGrant(db, grantId);
      onRevoked();
    };
    const read = async (column: 'id_hash' | 'uid_hash', value: string) => {
      const row = await db
        .selectFrom('oauth_records')
        .select(['id_hash', 'payload', 'expires_at', 'consumed_at'])
        .where('model', '=', model)
        .where(column, '=', hashOAuthId(value))
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && row.expires_at <= new Date().toISOString())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at === null
        ? payload
        : { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) };
    };
    return {
      async upsert(id, payload, expiresIn) {
        const { jti: _id, ...kept } = payload;
        const grantId = model === 'Grant' ? id : (payload.grantId ?? null);
        const values = {
          grant_id: grantId,
          uid_hash: payload.uid ? hashOAuthId(payload.uid) : null,
          account_id: payload.accountId ?? null,
          client_id: payload.clientId ?? null,
          payload: JSON.stringify(kept),
          expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
        };
        await db
          .insertInto('oauth_records')
          .values({ model, id_hash: hashOAuthId(id), consumed_at: null, ...values })
          .onConflict((conflict) => conflict.columns(['model', 'id_hash']).doUpdateSet(values))
          .execute();
      },
      async find(id) {
        const payload = await read('id_hash', id);
        return payload && { ...payload, jti: id };
      },
      async findByUid(uid) {
        // A session is found by its uid; its id (the cookie) is not known here and not needed by the caller.
        return read('uid_hash', uid);
      },
      findByUserCode: async () => undefined,
      async consume(id) {
        // Only while unconsumed, in one statement: the library reads a code or refresh token, refuses it when
        // consumed, then consumes it, so requests presenting it at once all read it unconsumed, and each got
        // tokens of its own. The one that consumes it goes on; the others are the replay they are, and end
        // the grant as the library ends it for a replay it sees (RFC 6749 sections 4.1.2 and 10.4).
        const consumed = await db
          .updateTable('oauth_records')
          .set({ consumed_at: new Date().toISOString() })
          .where('model', '=', model)
          .where('id_hash', '=', hashOAuthId(id))
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        if (consumed.numUpdatedRows > 0n) return;
        const record = await db
          .selectFrom('oauth_records')
          .select('grant_id')
          .where('model', '=', model)
          .where('id_hash', '=', hashOAuthId(id))
          .executeTakeFirst();
        if (record?.grant_id) await revokeByGrantId(record.grant_id);
        // The library's own words for the replay it sees.
        throw new errors.InvalidGrant(REPLAYED[model] ?? `${model} already consumed`);
      },
      async destroy(id) {
        await db
          .deleteFrom('oauth_records')
          .where('model', '=', model)
          .where('id_hash', '=', hashOAuthId(id))
          .execute();
        if (REVOCABLE.has(model)) onRevoked();
      },
      revokeByGrantId,
    };
  };
}

/** What the library says of a code or token used again (`consumeGrantSource`, the refresh token grant). */
const REPLAYED: Record<string, string> = {
  AuthorizationCode: 'authorization code already consumed',
  RefreshToken: 'refresh token already used',
};

/** The models whose end a resource server must see at once: a token that worked stops working. */
const REVOCABLE = new Set(['AccessToken', 'RefreshToken', 'Grant']);

/** Deletes a grant with every code and token issued under it, and the sites it covered. */
export async function revokeGrant(db: Kysely<AccountsTables>, grantId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
    await trx.deleteFrom('oauth_grant_sites').where('grant_id', '=', grantId).execute();
  });
}
