import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import { adminInProcess } from '../../support/admin.js';
import { authorizedCallback, personOf, redeem, refresh, registeredApp, startOAuthServer } from './support.js';

/**
 * An app learns who signed in and which sites it was granted (issue 44, item 5): the token response names the
 * site as the real platform's does (`blog_id`, `blog_url`), `GET /rest/v1.1/me` the user and `/me/sites` the
 * sites, each within the grant.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server?.close());

const getJson = async (url: string, token?: string) => {
  const response = await contractFetch(await contractChecker())(
    url,
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('who signed in, and where', () => {
  it('the token response names the first granted site; /me the user; /me/sites only the granted sites', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const flow = await authorizedCallback(server, app, ada, 'publishing:read', [{ id: 2, access: 'read' }]);
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    expect(tokens).toMatchObject({ blog_id: '2', blog_url: 'https://demo.example.com/blog' });

    const me = await getJson(`${server.url}/rest/v1.1/me`, tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      ID: 1,
      username: 'admin',
      display_name: 'Ada Admin',
      email: 'ada@demo.example.com',
      primary_blog: 2,
      primary_blog_url: 'https://demo.example.com/blog',
      site_count: 1,
      meta: { links: { self: `${server.url}/rest/v1.1/me`, site: `${server.url}/rest/v1.1/sites/2` } },
    });
    const sites = await getJson(`${server.url}/rest/v1.1/me/sites`, tokens.access_token);
    expect(sites.status).toBe(200);
    expect((sites.body.sites as { ID: number; URL: string }[]).map((site) => [site.ID, site.URL])).toEqual([
      [2, 'https://demo.example.com/blog'],
    ]);

    // A refreshed token names the same site.
    const renewed = await refresh(app, tokens.refresh_token!);
    expect(renewed).toMatchObject({ blog_id: '2', blog_url: 'https://demo.example.com/blog' });
  });

  it('a command-line token sees every site of its user', async () => {
    const created = await adminInProcess(server.built.db, 'tokens', 'create', '--user', 'admin');
    const token = created.stdout.trim().split('\n').at(-1)!;
    const me = await getJson(`${server.url}/rest/v1.1/me`, token);
    expect(me.body).toMatchObject({
      ID: 1,
      primary_blog: 1,
      primary_blog_url: 'https://demo.example.com',
      site_count: 2,
    });
    const sites = await getJson(`${server.url}/rest/v1.1/me/sites`, token);
    expect((sites.body.sites as { ID: number }[]).map((site) => site.ID)).toEqual([1, 2]);
  });

  it('a grant without sites names none, and a token without a publishing scope is refused by /me', async () => {
    const app = await registeredApp(server);
    const sam = await personOf(server, 'sam@demo.example.com');
    const flow = await authorizedCallback(server, app, sam, 'profile', []);
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    expect(tokens.blog_id).toBeUndefined();
    // A token without a publishing scope is no publishing token.
    expect((await getJson(`${server.url}/rest/v1.1/me`, tokens.access_token)).status).toBe(401);
  });

  it('without a token: 401 authorization_required; with an unknown one: 401 invalid_token', async () => {
    expect(await getJson(`${server.url}/rest/v1.1/me`)).toMatchObject({
      status: 401,
      body: { error: 'authorization_required' },
    });
    expect(await getJson(`${server.url}/rest/v1.1/me/sites`, 'not-a-token')).toMatchObject({
      status: 401,
      body: { error: 'invalid_token' },
    });
  });
});

describe('apps you authorized', () => {
  it('lists an app once however many times the person authorized it', async () => {
    const app = await registeredApp(server);
    const eddie = await personOf(server, 'eddie@demo.example.com');
    await authorizedCallback(server, app, eddie, 'publishing:read', [{ id: 1, access: 'read' }]);
    // A second consent, never redeemed.
    await authorizedCallback(server, app, eddie, 'profile', []);
    const listed = await sdk.listAuthorizations({ client: eddie.client });
    const rows = listed.data!.authorizations.filter((row) => row.application_id === app.application.application.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.scopes.sort()).toEqual(['profile', 'publishing:read']);
    expect(rows[0]!.sites).toEqual([
      { id: 1, name: 'Harbour Town Demo', url: 'https://demo.example.com', access: 'read' },
    ]);
  });
});
