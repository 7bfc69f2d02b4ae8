import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { kyselyOAuthAdapter, ClientMetadata } from './adapter.js';
import type { AuthorizationServerOptions } from './options.js';
import { ALL_OAUTH_SCOPES } from './scopes.js';

/** Lifetimes (seconds): a code lives a minute and works once; an access token an hour; a refresh token 30 days, replaced at each use. */
export const OAUTH_TTL = {
  AuthorizationCode: 60,
  AccessToken: 3600,
  IdToken: 3600,
  RefreshToken: 30 * 24 * 3600,
  Interaction: 600,
  Session: 600,
  Grant: 365 * 24 * 3600,
};

/** A PKCE S256 challenge: BASE64URL of a SHA-256, 43 characters (the contract's pattern). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The library's configuration: what the server allows (public clients with
 * PKCE S256, the scopes, the lifetimes), the grant each authorization makes
 * anew, the consent page it sends a person to, and its error page.
 */
export function configuration(
  options: AuthorizationServerOptions,
  cookieKey: string,
  signingKey: Record<string, unknown>,
  adapter: ReturnType<typeof kyselyOAuthAdapter>,
  invalidRequest: (description: string) => Error,
): Configuration {
  const secure = new URL(options.publicUrl).protocol === 'https:';
  const cookieOptions = { signed: true, httpOnly: true, sameSite: 'lax', secure } as const;
  return {
    adapter,
    // OpenID Connect: `scope=openid` gives an ID token naming the account (`sub`, its id), and the userinfo endpoint
    // answers the same claim; no other claim is released (the person's profile is the `profile` scope's API).
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: [...ALL_OAUTH_SCOPES],
    claims: { openid: ['sub'] },
    // Applications are public clients: no secret, no key; what the metadata lists is what works.
    clientAuthMethods: ['none'],
    // The one signing key is EC P-256 (`secrets.ts`): ID tokens are ES256, and the metadata says only that.
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    // The library takes any challenge of 43 to 128 unreserved characters (a verifier's bounds), though no other length
    // than 43 can match an S256 verifier: refused here as the contract says, before a code is issued that cannot be redeemed.
    extraParams: {
      code_challenge: (_ctx: unknown, value: string | undefined) => {
        if (value !== undefined && !S256_CHALLENGE.test(value))
          throw invalidRequest('code_challenge must be 43 characters of base64url (BASE64URL(SHA256(code_verifier)))');
      },
    },
    ttl: OAUTH_TTL,
    // Every use of a refresh token replaces it; a replaced one used again revokes the whole grant.
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every authorization asks the person (the dashboard's consent page, where they pick the sites): only the
    // grant their answer just made counts, never one remembered from an earlier authorization.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    routes: {
      authorization: '/authorize',
      token: '/token',
      revocation: '/revoke',
      jwks: '/jwks',
      userinfo: '/userinfo',
    },
    features: {
      devInteractions: { enabled: false },
      // An app revokes only its own tokens: another app's token sent here is answered 200 (RFC 7009) and left alone,
      // since a public client cannot prove who it is. Set explicitly: the library asks for this policy to be chosen.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // Pushed authorization requests (RFC 9126) are on by default in the library: off, so every endpoint served is one the contract describes.
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      // DPoP (RFC 9449) is off: the resource servers (publishing, profiles) take bearer tokens only, so the server
      // neither advertises it nor binds a token to a key that nothing would check (decisions/oauth-bearer-only.md).
      dPoP: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: {
      url: (ctx, interaction) => {
        // The library's own interaction cookie has the consent page's path, which the dashboard API is not under: the
        // same signed cookie is set for the API's path of this one request, so the approval is bound to this browser.
        ctx.cookies.set(ctx.oidc.provider.cookieName('interaction'), interaction.uid, {
          ...cookieOptions,
          path: `${options.consentApi}/${interaction.uid}`,
          maxAge: OAUTH_TTL.Interaction * 1000,
        });
        return `${options.consentPage}#consent=${interaction.uid}`;
      },
    },
    extraClientMetadata: { properties: ['javascript_origins'] },
    clientBasedCORS: (_ctx, origin, client) =>
      ((client as unknown as ClientMetadata).javascript_origins ?? []).includes(origin),
    cookies: {
      keys: [cookieKey],
      long: cookieOptions,
      short: cookieOptions,
    },
    jwks: { keys: [signingKey] },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      // An authorization request whose error cannot go back to the app. A person's browser (it prefers HTML) sees the
      // dashboard's error page, with no script; an API client (`*/*`, JSON) the error as JSON.
      if (options.errorPage && ctx.accepts('json', 'html') === 'html') {
        ctx.set('Content-Security-Policy', options.errorPage.policy);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = options.errorPage.render(out);
        return;
      }
      ctx.type = 'application/json';
      ctx.body = out;
    },
  } as Configuration;
}
