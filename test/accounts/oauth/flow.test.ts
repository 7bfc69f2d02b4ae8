import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import { authorizedCallback, personOf, redeem, registeredApp, startOAuthServer } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server?.close());

describe('the authorization code flow with PKCE', () => {
  it('gives the app a token that acts as the person on the site they picked, and nowhere else', async () => {
    const call = contractFetch(await contractChecker());
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const flow = await authorizedCallback(server, app, ada, 'publishing:write', [{ id: 1, access: 'write' }]);
    expect(flow.callback.origin + flow.callback.pathname).toBe('http://127.0.0.1:8799/callback');
    const tokens = await redeem(app, flow.callback, flow.state, flow.codeVerifier);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const auth = { headers: { Authorization: `Bearer ${tokens.access_token}` } };
    const trashed = await call(`${server.url}/rest/v1.1/sites/1/posts/108/delete`, { method: 'POST', ...auth });
    expect(trashed.status).toBe(200);
    expect(((await trashed.json()) as { status: string }).status).toBe('trash');
    const restored = await call(`${server.url}/rest/v1.1/sites/1/posts/108/restore`, { method: 'POST', ...auth });
    expect(restored.status).toBe(200);
    // Ada administers site 2 too, but did not grant it.
    const elsewhere = await call(`${server.url}/rest/v1.1/sites/2/posts/120/restore`, { method: 'POST', ...auth });
    expect(elsewhere.status).toBe(403);
  });
});
