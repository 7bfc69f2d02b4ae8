import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsOf } from '../../../src/accounts/tables.js';
import type { TestServer } from '../../support/server.js';
import {
  answerInBrowser,
  authorizationRequest,
  browserAt,
  personOf,
  redeem,
  registeredApp,
  startOAuthServer,
} from './support.js';

/**
 * Issue 52, item 9: a consent answer naming one site twice (which access
 * would it get?) is a 400 that grants nothing, and the request stays open
 * for a good answer; it was a 500 that left a grant without sites.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server?.close());

describe('a consent answer naming a site twice', () => {
  it('is refused with 400 and grants nothing; the same request then takes a good answer', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const request = await authorizationRequest(app.as, app.client, 'publishing:write');
    const browser = browserAt(server);
    const consentPage = await browser.visit(request.url.href);
    const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent')!;
    expect(consentId).toBeTruthy();

    const twice = await answerInBrowser(ada, browser, consentId, {
      approve: true,
      sites: [
        { id: 1, access: 'read' },
        { id: 1, access: 'write' },
      ],
    });
    expect(twice.response.status).toBe(400);
    expect(twice.error).toMatchObject({ code: 'invalid_request' });
    expect(JSON.stringify(twice.error)).toContain('Site 1 is named more than once');
    const db = accountsOf(server.built.db as Kysely<never>);
    const grants = () =>
      db
        .selectFrom('oauth_records')
        .select('grant_id')
        .where('model', '=', 'Grant')
        .where('client_id', '=', app.client.client_id)
        .execute();
    expect(await grants()).toEqual([]);

    const good = await answerInBrowser(ada, browser, consentId, { approve: true, sites: [{ id: 1, access: 'write' }] });
    expect(good.response.status).toBe(200);
    const callback = await browser.visit(good.data!.redirect_to);
    const tokens = await redeem(app, callback, request.state, request.codeVerifier);
    expect(tokens).toMatchObject({ blog_id: '1' });
    const [grant] = await grants();
    expect(
      await db
        .selectFrom('oauth_grant_sites')
        .select(['site_id', 'access'])
        .where('grant_id', '=', grant!.grant_id!)
        .execute(),
    ).toEqual([{ site_id: 1, access: 'write' }]);
  });
});
