import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHashes } from '../../../src/accounts/email.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { realProfileProblems } from '../../support/realProfileSchema.js';
import type { TestServer } from '../../support/server.js';
import { authorizedCallback, personOf, redeem, registeredApp, startOAuthServer } from '../../accounts/oauth/support.js';
import { signedUpUser } from '../developer/support/dashboard.js';

let server: TestServer;
let call: typeof fetch;
beforeAll(async () => {
  server = await startOAuthServer();
  call = contractFetch(await contractChecker());
});
afterAll(() => server?.close());

/** An access token of `scope` that alex (who has a profile) gave an app. */
const alexToken = (scope: string) => tokenOf('alex@example.com', scope);

/** An access token of `scope` that a person gave an app, on `sites` (a publishing scope needs one). */
async function tokenOf(email: string, scope: string, sites: { id: number; access: 'read' | 'write' }[] = []) {
  const app = await registeredApp(server);
  const person = await personOf(server, email);
  const flow = await authorizedCallback(server, app, person, scope, sites);
  return (await redeem(app, flow.callback, flow.state, flow.codeVerifier)).access_token;
}

const me = (path: string, token?: string) =>
  call(`${server.url}/v3/me/${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

describe('GET /v3/me/profile', () => {
  it('answers the signed-in person’s full profile to a token of the profile scope', async () => {
    const token = await alexToken('profile');
    const response = await me('profile', token);
    expect(response.status).toBe(200);
    const profile = (await response.json()) as Record<string, unknown>;
    expect(profile.hash).toBe(emailHashes('alex@example.com').sha256);
    // The full profile: what only keyed lookups see.
    expect(profile).toHaveProperty('first_name');
    expect(profile).toHaveProperty('timezone');
    // The real service's own published Profile schema, made strict.
    expect(realProfileProblems(profile)).toBeNull();
    const keyed = await call(`${server.url}/v3/profiles/${emailHashes('alex@example.com').sha256}`);
    expect(keyed.status).toBe(200);
  });

  it('is 401 without a token or with an unknown one, 403 for a token without the profile scope, each with its RFC 6750 challenge', async () => {
    const missing = await me('profile');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="profiles"');
    const unknown = await me('profile', 'not-a-token');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="profiles", error="invalid_token"');
    const publishingOnly = await tokenOf('ada@demo.example.com', 'publishing:read', [{ id: 1, access: 'read' }]);
    const refused = await me('profile', publishingOnly);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer realm="profiles", error="insufficient_scope", scope="profile"',
    );
    expect(await refused.json()).toMatchObject({ code: 'insufficient_scope' });
  });

  it('is 404 disabled for a person without a profile', async () => {
    const app = await registeredApp(server);
    const newcomer = await signedUpUser(server);
    const person = await personOf(server, newcomer.email);
    const flow = await authorizedCallback(server, app, person, 'profile', []);
    const token = (await redeem(app, flow.callback, flow.state, flow.codeVerifier)).access_token;
    const response = await me('profile', token);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Profile is disabled', code: 'disabled' });
  });

  it('finds the profile of a demo person who logs in to the demo', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const flow = await authorizedCallback(server, app, ada, 'profile', []);
    const token = (await redeem(app, flow.callback, flow.state, flow.codeVerifier)).access_token;
    const response = await me('profile', token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      display_name: 'Ada Admin',
      profile_url: expect.stringContaining('/ada'),
    });
  });
});

describe('GET /v3/me/associated-email', () => {
  it('answers true for the person’s own address (SHA-256 or MD5, any case) and false for another', async () => {
    const token = await alexToken('profile');
    const hashes = emailHashes('alex@example.com');
    for (const hash of [hashes.sha256, hashes.md5.toUpperCase()]) {
      const response = await me(`associated-email?email_hash=${hash}`, token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ associated: true });
    }
    const other = await me(`associated-email?email_hash=${emailHashes('sam@example.com').sha256}`, token);
    expect(await other.json()).toEqual({ associated: false });
  });

  it('needs the email_hash parameter', async () => {
    const token = await alexToken('profile');
    expect((await me('associated-email', token)).status).toBe(400);
  });
});
