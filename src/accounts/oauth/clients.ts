import type { Kysely } from 'kysely';
import type { AccountsTables } from '../tables.js';
import { ownsApplication } from '../rows.js';

/** An application's OAuth client settings. */
export interface OAuthClientSettings {
  clientId: string;
  redirectUris: string[];
  javascriptOrigins: string[];
}

/**
 * Why a redirect URI is refused, or undefined when it may be registered:
 * an absolute URI without a fragment (RFC 6749 §3.1.2), and one of
 * - `https` on a host that is not a loopback address;
 * - `http` on a loopback IP literal, `127.0.0.1` or `[::1]` (RFC 8252 §7.3):
 *   a native app's loopback redirect, matched with any port;
 * - an app's own scheme with a dot (RFC 8252 §7.1, `com.example.app:/cb`).
 * `localhost` is refused (RFC 8252 §8.3: the name may resolve to another
 * interface, or be taken by another program), and with it every scheme a
 * browser would run or read locally (`javascript:`, `data:`, `file:`, …: none
 * has a dot).
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return `${uri} is not an absolute URI`;
  const url = new URL(uri);
  if (url.hash || uri.includes('#')) return `${uri} has a fragment`;
  if (url.hostname === 'localhost')
    return `${uri} names localhost: use http://127.0.0.1 or http://[::1] for a loopback redirect (RFC 8252 §8.3)`;
  const loopback = LOOPBACK_IPS.has(url.hostname);
  if (url.protocol === 'https:')
    return loopback ? `${uri} is https on a loopback address: a loopback redirect is http (RFC 8252 §7.3)` : undefined;
  if (url.protocol === 'http:') return loopback ? undefined : `${uri} is http on a host that is not 127.0.0.1 or [::1]`;
  if (url.protocol.slice(0, -1).includes('.')) return undefined;
  return `${uri} has neither https, loopback http nor an app's own reverse-domain scheme (com.example.app:/cb)`;
}

/** The loopback IP literals a native app's redirect may name (RFC 8252 §7.3), as `URL` gives the host name. */
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

/**
 * Whether an application's redirect URIs make it a native app (RFC 8252): a
 * loopback `http` redirect or an app's own scheme. The authorization server
 * then matches a loopback redirect with any port (§7.3), as the app's
 * operating system picks one when it listens.
 */
export function isNativeClient(redirectUris: readonly string[]): boolean {
  return redirectUris.some((uri) => !uri.startsWith('https:'));
}

/** Why a JavaScript origin is refused, or undefined: `scheme://host[:port]` and nothing more. */
export function originProblem(origin: string): string | undefined {
  if (!URL.canParse(origin)) return `${origin} is not an origin`;
  const url = new URL(origin);
  if (url.origin !== origin || !['http:', 'https:'].includes(url.protocol))
    return `${origin} is not an origin such as https://app.example.com`;
  return undefined;
}

/** Saves an application's redirect URIs and origins (replacing the previous ones); undefined when it is not the account's. */
export async function setOAuthClient(
  db: Kysely<AccountsTables>,
  accountId: string,
  applicationId: string,
  settings: { redirectUris: string[]; javascriptOrigins: string[] },
): Promise<OAuthClientSettings | undefined> {
  if (!(await ownsApplication(db, accountId, applicationId))) return undefined;
  await db
    .updateTable('api_applications')
    .set({
      redirect_uris: JSON.stringify(settings.redirectUris),
      javascript_origins: JSON.stringify(settings.javascriptOrigins),
    })
    .where('id', '=', applicationId)
    .execute();
  return { clientId: applicationId, ...settings };
}

/** An application's redirect URIs and origins as saved; undefined when it is not the account's. */
export async function getOAuthClient(
  db: Kysely<AccountsTables>,
  accountId: string,
  applicationId: string,
): Promise<OAuthClientSettings | undefined> {
  const row = await db
    .selectFrom('api_applications')
    .select(['redirect_uris', 'javascript_origins'])
    .where('id', '=', applicationId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    clientId: applicationId,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    javascriptOrigins: JSON.parse(row.javascript_origins) as string[],
  };
}

/** Every origin that some application lists: the publishing API's CORS allow-list beside the operator's. */
export async function registeredOrigins(db: Kysely<AccountsTables>): Promise<ReadonlySet<string>> {
  const rows = await db
    .selectFrom('api_applications')
    .select('javascript_origins')
    .where('javascript_origins', '<>', '[]')
    .execute();
  return new Set(rows.flatMap((row) => JSON.parse(row.javascript_origins) as string[]));
}
