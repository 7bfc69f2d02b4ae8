import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { AccountSite, SiteDirectory } from '../../platform/module.js';
import type { Executor } from '../rows.js';
import type { AccountsTables } from '../tables.js';
import { findClient, revokeGrant } from './adapter.js';
import { ALL_OAUTH_SCOPES, OAUTH_SCOPES, type OAuthScope, type SiteAccess } from './scopes.js';

/** The change-bus topic of OAuth grants: published after a person revokes an app, so token caches forget at once. */
export const OAUTH_GRANTS_CHANGED = 'oauth-grants';

/** A site the person may grant an app, with their role on it (the publishing module's, through `SiteDirectory`). */
export type GrantableSite = AccountSite;

/** What the consent page shows: the app, what it asks, and the person's sites. */
export interface ConsentRequest {
  application: { id: string; name: string; websiteUrl: string | null };
  scopes: OAuthScope[];
  /** Whether the app asks to sign the person in (OpenID Connect): it learns the account's id. */
  openid: boolean;
  redirectUri: string;
  sites: GrantableSite[];
}

/** An app a person authorized, as their dashboard lists it. */
export interface Authorization {
  applicationId: string;
  name: string;
  scopes: OAuthScope[];
  sites: { id: number; name: string; url: string; access: SiteAccess }[];
  grantedAt: string;
}

/** An OAuth access token that is live: whose it is, which app holds it, and what it may do. */
export interface OAuthAccess {
  accountId: string;
  clientId: string;
  grantId: string;
  scopes: ReadonlySet<string>;
  /** The sites of the publishing scopes, each read-only or read and write. */
  sites: ReadonlyMap<number, SiteAccess>;
}

/** The scopes an interaction asks for that this server knows (unknown ones are refused by the provider before). */
const askedScopes = (scope: unknown): OAuthScope[] =>
  String(scope ?? '')
    .split(' ')
    .filter((name): name is OAuthScope => (ALL_OAUTH_SCOPES as readonly string[]).includes(name));

/** The browser asking: its request and response, whose cookies say which authorization it started. */
export interface AskingBrowser {
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * The pending authorization request `uid`, only when the browser asking
 * started it: it holds the interaction's signed cookie, set by the
 * authorization endpoint for this request's consent path (see
 * `authorizationServer`'s `interactions.url`), read by the library's
 * `interactionDetails`. A link to someone else's request is nothing here:
 * a stranger cannot have a person approve the stranger's authorization.
 */
export async function boundInteraction(
  provider: Provider,
  browser: AskingBrowser,
  uid: string,
): Promise<Interaction | undefined> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(browser.req, browser.res);
  } catch (error) {
    if ((error as { name?: string }).name === 'SessionNotFound') return undefined;
    throw error;
  }
  return interaction.uid === uid ? interaction : undefined;
}

/** Whether an authorization asks for OpenID Connect (`openid` among its scopes). */
const openIdAsked = (scope: unknown): boolean =>
  String(scope ?? '')
    .split(' ')
    .includes('openid');

/** A pending authorization request this browser started (an interaction of the provider), or undefined when it is unknown, expired or another's. */
export async function consentRequest(
  provider: Provider,
  db: Kysely<AccountsTables>,
  sites: SiteDirectory,
  browser: AskingBrowser,
  uid: string,
  accountId: string,
): Promise<ConsentRequest | undefined> {
  const interaction = await boundInteraction(provider, browser, uid);
  if (!interaction) return undefined;
  const client = await findClient(db, String(interaction.params.client_id));
  if (!client) return undefined;
  return {
    application: { id: client.client_id, name: client.client_name, websiteUrl: client.client_uri ?? null },
    scopes: askedScopes(interaction.params.scope),
    openid: openIdAsked(interaction.params.scope),
    redirectUri: String(interaction.params.redirect_uri),
    sites: await sites.ofAccount(accountId),
  };
}

/**
 * The person's answer to a pending authorization request: on approval a grant
 * of the scopes asked for, on the sites picked among theirs (`write` only when
 * the app asked for `publishing:write`), then the provider carries on at the
 * address answered (the authorization endpoint, which redirects to the app).
 * A refusal sends the app `access_denied`. Undefined for an unknown or expired
 * request, or one another browser started (`boundInteraction`). `no_site` for
 * an approval of a publishing scope that picks none of the person's sites (its
 * token could use no site): nothing is granted, the request still waits.
 */
export async function answerConsent(
  provider: Provider,
  db: Kysely<AccountsTables>,
  directory: SiteDirectory,
  browser: AskingBrowser,
  uid: string,
  accountId: string,
  answer: { approve: boolean; sites: { id: number; access: SiteAccess }[] },
): Promise<{ redirectTo: string } | 'no_site' | undefined> {
  const interaction = await boundInteraction(provider, browser, uid);
  if (!interaction) return undefined;
  const clientId = String(interaction.params.client_id);
  if (!answer.approve) {
    interaction.result = { error: 'access_denied', error_description: 'The person refused the authorization' };
  } else {
    const scopes = askedScopes(interaction.params.scope);
    const mayWrite = scopes.includes(OAUTH_SCOPES.publishingWrite);
    const publishing = mayWrite || scopes.includes(OAUTH_SCOPES.publishingRead);
    const own = new Set((await directory.ofAccount(accountId)).map((site) => site.id));
    const sites = publishing ? answer.sites.filter((site) => own.has(site.id)) : [];
    if (publishing && !sites.length) return 'no_site';
    const grant = new provider.Grant({ accountId, clientId });
    // `openid` (OpenID Connect: an ID token, the userinfo endpoint) is granted with the rest when asked for; without it
    // in the grant the library would ask the person again and again.
    const granted = [...(openIdAsked(interaction.params.scope) ? ['openid'] : []), ...scopes];
    if (granted.length) grant.addOIDCScope(granted.join(' '));
    const grantId = await grant.save();
    // One row per site (the first answer for a site wins; the dashboard refuses a site named twice before this).
    const rows = sites.filter((site, index) => sites.findIndex((other) => other.id === site.id) === index);
    try {
      if (rows.length)
        await db
          .insertInto('oauth_grant_sites')
          .values(
            rows.map((site) => ({ grant_id: grantId, site_id: site.id, access: mayWrite ? site.access : 'read' })),
          )
          .execute();
    } catch (error) {
      // No grant without its sites: the grant goes too, and the request stays pending for another answer.
      await grant.destroy();
      throw error;
    }
    interaction.result = { login: { accountId }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return { redirectTo: interaction.returnTo };
}

/** The apps the person authorized (their live grants), newest first. */
export async function listAuthorizations(
  db: Kysely<AccountsTables>,
  sites: SiteDirectory,
  accountId: string,
): Promise<Authorization[]> {
  const now = new Date().toISOString();
  const grants = await db
    .selectFrom('oauth_records')
    .innerJoin('api_applications', 'api_applications.id', 'oauth_records.client_id')
    .select(['oauth_records.grant_id', 'oauth_records.payload', 'api_applications.id', 'api_applications.name'])
    .where('oauth_records.model', '=', 'Grant')
    .where('oauth_records.account_id', '=', accountId)
    .where((eb) => eb.or([eb('oauth_records.expires_at', 'is', null), eb('oauth_records.expires_at', '>', now)]))
    .execute();
  const granted = grants.length
    ? await db
        .selectFrom('oauth_grant_sites')
        .select(['grant_id', 'site_id', 'access'])
        .where(
          'grant_id',
          'in',
          grants.map((grant) => grant.grant_id!),
        )
        .execute()
    : [];
  // The sites' names and addresses are the publishing module's to answer; a site gone since is left out.
  const named = new Map(
    (await sites.byIds([...new Set(granted.map((row) => Number(row.site_id)))])).map((site) => [site.id, site]),
  );
  // Every authorization makes a grant of its own: an app is listed once, with what all its live grants allow.
  const byApp = new Map<string, Authorization>();
  for (const grant of grants) {
    const payload = JSON.parse(grant.payload) as { iat?: number; openid?: { scope?: string } };
    const grantedAt = new Date((payload.iat ?? 0) * 1000).toISOString();
    const listed = byApp.get(grant.id) ?? {
      applicationId: grant.id,
      name: grant.name,
      scopes: [],
      sites: [],
      grantedAt,
    };
    listed.scopes = [...new Set([...listed.scopes, ...askedScopes(payload.openid?.scope ?? '')])];
    for (const row of granted.filter((row) => row.grant_id === grant.grant_id)) {
      const site = named.get(Number(row.site_id));
      if (!site) continue;
      const access = row.access as SiteAccess;
      const known = listed.sites.find((entry) => entry.id === site.id);
      if (!known) listed.sites.push({ ...site, access });
      else if (access === 'write') known.access = 'write';
    }
    if (grantedAt > listed.grantedAt) listed.grantedAt = grantedAt;
    byApp.set(grant.id, listed);
  }
  return [...byApp.values()]
    .map((listed) => ({ ...listed, sites: listed.sites.sort((a, b) => a.id - b.id) }))
    .sort((a, b) => b.grantedAt.localeCompare(a.grantedAt) || a.applicationId.localeCompare(b.applicationId));
}

/** Revokes every grant the person gave an app, with its codes and tokens; false when there was none. */
export async function revokeAuthorization(
  db: Kysely<AccountsTables>,
  accountId: string,
  clientId: string,
): Promise<boolean> {
  const grants = await db
    .selectFrom('oauth_records')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .where('account_id', '=', accountId)
    .where('client_id', '=', clientId)
    .execute();
  for (const grant of grants) await revokeGrant(db, grant.grant_id!);
  return grants.length > 0;
}

/** Revokes every grant of an account (every app's tokens for that person). */
export async function revokeAccountGrants(db: Kysely<AccountsTables>, accountId: string): Promise<number> {
  const grants = await db
    .selectFrom('oauth_records')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .where('account_id', '=', accountId)
    .execute();
  for (const grant of grants) await revokeGrant(db, grant.grant_id!);
  return grants.length;
}

/**
 * Deletes every OAuth record an application or an account is named in (its
 * grants, codes and tokens, and the sites those grants covered), in the
 * caller's transaction: the application or account is being deleted, and
 * its tokens must not outlive it.
 */
export async function deleteGrantsOf(db: Executor, who: { clientId: string } | { accountId: string }): Promise<void> {
  const [column, value] =
    'clientId' in who ? (['client_id', who.clientId] as const) : (['account_id', who.accountId] as const);
  const grants = () =>
    db.selectFrom('oauth_records').select('grant_id').where(column, '=', value).where('grant_id', 'is not', null);
  await db.deleteFrom('oauth_grant_sites').where('grant_id', 'in', grants()).execute();
  await db.deleteFrom('oauth_records').where('grant_id', 'in', grants()).execute();
  await db.deleteFrom('oauth_records').where(column, '=', value).execute();
}

/**
 * What a live OAuth access token may do, by the token's SHA-256 hex (as
 * bearer tokens are looked up), or undefined for an unknown, expired or
 * revoked one (its grant gone).
 */
export async function findOAuthAccess(db: Kysely<AccountsTables>, tokenHash: string): Promise<OAuthAccess | undefined> {
  const now = new Date().toISOString();
  const row = await db
    .selectFrom('oauth_records as token')
    .innerJoin('oauth_records as grant', (join) =>
      join.onRef('grant.grant_id', '=', 'token.grant_id').on('grant.model', '=', 'Grant'),
    )
    .select(['token.payload', 'token.grant_id', 'token.account_id', 'token.client_id'])
    .where('token.model', '=', 'AccessToken')
    .where('token.id_hash', '=', tokenHash)
    .where('token.expires_at', '>', now)
    .executeTakeFirst();
  if (!row?.grant_id || !row.account_id || !row.client_id) return undefined;
  const { scope } = JSON.parse(row.payload) as { scope?: string };
  const sites = await db
    .selectFrom('oauth_grant_sites')
    .select(['site_id', 'access'])
    .where('grant_id', '=', row.grant_id)
    .execute();
  return {
    accountId: row.account_id,
    clientId: row.client_id,
    grantId: row.grant_id,
    scopes: new Set((scope ?? '').split(' ').filter(Boolean)),
    sites: new Map(sites.map((site) => [Number(site.site_id), site.access as SiteAccess])),
  };
}

/**
 * The site a token response names, as the real platform's names the blog a
 * token is for (`blog_id`, `blog_url`): the first (by ID) of the sites the
 * grant covers; none for a grant without sites.
 */
export async function grantSite(
  db: Kysely<AccountsTables>,
  sites: SiteDirectory,
  grantId: string,
): Promise<{ blog_id: string; blog_url: string } | undefined> {
  const covered = await db.selectFrom('oauth_grant_sites').select('site_id').where('grant_id', '=', grantId).execute();
  const [first] = await sites.byIds(covered.map((row) => Number(row.site_id)));
  return first && { blog_id: String(first.id), blog_url: first.url };
}
