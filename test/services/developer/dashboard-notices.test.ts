import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { signUpNotice } from '../../../web/developers/notices.js';
import { dashboardCaller, GOOD_PASSWORD, startDashboardServer, uniqueEmail } from './support/dashboard.js';

/** The dashboard page's welcome after a sign-up, made from the sign-up's own answer: it says where the link is. */
let server: TestServer;
beforeAll(async () => {
  // As `npm start` runs outside production: no SMTP_URL, so no email is sent.
  server = await startDashboardServer();
});
afterAll(() => server?.close());

describe('the sign-up notice', () => {
  it('on a server that sends no email, says the link is in the server log, never that it was emailed', async () => {
    const caller = await dashboardCaller(server);
    const email = uniqueEmail('notice');
    const answer = await sdk.signUp({ client: caller.client, body: { email, password: GOOD_PASSWORD } });
    expect(answer.response.status).toBe(202);
    const notice = signUpNotice(email, answer.data!.message);
    expect(notice).toContain('the link to verify the address is in the server log');
    expect(notice).not.toMatch(/emailed/);
  });

  it('on a server that sends email, says to open the emailed link', () => {
    expect(signUpNotice('dana@example.com', 'If this address can have an account, it now has one.')).toBe(
      'Welcome! Your account dana@example.com is ready. Open the link we emailed you to verify the address, then create an application to get an API key.',
    );
  });
});
