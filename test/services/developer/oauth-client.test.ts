import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { createdApplication, signedUpUser, startDashboardServer } from './support/dashboard.js';

let server: TestServer;
beforeAll(async () => {
  server = await startDashboardServer();
});
afterAll(() => server?.close());

const settings = (redirect_uris: string[], javascript_origins: string[] = []) => ({
  redirect_uris,
  javascript_origins,
});

describe('PUT /applications/{applicationId}/oauth-client', () => {
  it('saves exact redirect URIs and origins of the caller’s own application, replacing the previous ones', async () => {
    const user = await signedUpUser(server);
    const { application } = await createdApplication(user);
    const put = (body: ReturnType<typeof settings>) =>
      sdk.setOAuthClient({ client: user.client, headers: user.csrf, path: { applicationId: application.id }, body });
    const first = await put(
      settings(
        ['https://weather.example.com/cb', 'com.example.weather:/cb', 'http://127.0.0.1:8000/cb'],
        ['https://weather.example.com'],
      ),
    );
    expect(first.response.status).toBe(200);
    expect(first.data).toEqual({
      client_id: application.id,
      redirect_uris: ['https://weather.example.com/cb', 'com.example.weather:/cb', 'http://127.0.0.1:8000/cb'],
      javascript_origins: ['https://weather.example.com'],
    });
    const second = await put(settings(['https://weather.example.com/other']));
    expect(second.data?.redirect_uris).toEqual(['https://weather.example.com/other']);
  });

  it.each([
    ['a fragment', settings(['https://weather.example.com/cb#x'])],
    ['plain http on a public host', settings(['http://weather.example.com/cb'])],
    ['a relative URI', settings(['/cb'])],
    ['an origin with a path', settings(['https://weather.example.com/cb'], ['https://weather.example.com/app'])],
  ])('refuses %s with 400', async (_what, body) => {
    const user = await signedUpUser(server);
    const { application } = await createdApplication(user);
    const { response, error } = await sdk.setOAuthClient({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
      body,
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request' });
  });

  it('answers 404 for another account’s application and 403 with a wrong CSRF token', async () => {
    const owner = await signedUpUser(server);
    const { application } = await createdApplication(owner);
    const other = await signedUpUser(server);
    const path = { applicationId: application.id };
    const body = settings(['https://weather.example.com/cb']);
    expect((await sdk.setOAuthClient({ client: other.client, headers: other.csrf, path, body })).response.status).toBe(
      404,
    );
    expect(
      (await sdk.setOAuthClient({ client: owner.client, headers: { 'X-CSRF-Token': 'forged' }, path, body })).response
        .status,
    ).toBe(403);
  });
});

describe('the consent requests and authorizations', () => {
  it('answer 404 for an unknown request and 401 without a session', async () => {
    const user = await signedUpUser(server);
    expect((await sdk.getConsentRequest({ client: user.client, path: { consentId: 'unknown' } })).response.status).toBe(
      404,
    );
    const answered = await sdk.answerConsentRequest({
      client: user.client,
      headers: user.csrf,
      path: { consentId: 'unknown' },
      body: { approve: true },
    });
    expect(answered.response.status).toBe(404);
    user.setCookie(undefined);
    expect((await sdk.getConsentRequest({ client: user.client, path: { consentId: 'unknown' } })).response.status).toBe(
      401,
    );
  });

  it('list no authorization for a new account, and 404 when revoking one it never gave', async () => {
    const user = await signedUpUser(server);
    expect((await sdk.listAuthorizations({ client: user.client })).data).toEqual({ authorizations: [] });
    const revoked = await sdk.revokeAuthorization({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: 'nope' },
    });
    expect(revoked.response.status).toBe(404);
  });
});

describe('GET /applications/{applicationId}/oauth-client', () => {
  it('reads back the saved settings; empty lists before any; 404 for another account’s application, 401 logged out', async () => {
    const user = await signedUpUser(server);
    const { application } = await createdApplication(user);
    const path = { applicationId: application.id };
    const before = await sdk.getOAuthClient({ client: user.client, path });
    expect(before.response.status).toBe(200);
    expect(before.data).toEqual({ client_id: application.id, redirect_uris: [], javascript_origins: [] });
    await sdk.setOAuthClient({
      client: user.client,
      headers: user.csrf,
      path,
      body: settings(['http://127.0.0.1:9000/cb'], ['http://127.0.0.1:9000']),
    });
    const after = await sdk.getOAuthClient({ client: user.client, path });
    expect(after.data).toEqual({
      client_id: application.id,
      redirect_uris: ['http://127.0.0.1:9000/cb'],
      javascript_origins: ['http://127.0.0.1:9000'],
    });

    const other = await signedUpUser(server);
    expect((await sdk.getOAuthClient({ client: other.client, path })).response.status).toBe(404);
    user.setCookie(undefined);
    expect((await sdk.getOAuthClient({ client: user.client, path })).response.status).toBe(401);
  });
});
