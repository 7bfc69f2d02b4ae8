import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { dashboardCaller, signedUpUser, startDashboardServer, uniqueEmail } from './support/dashboard.js';

/**
 * Password hashes are gated (`DEVELOPER_PASSWORD_HASHES`, `DEVELOPER_PASSWORD_HASH_WAIT_MS`): each holds the
 * scrypt memory while it runs, so a burst of log-ins from many addresses (which the per-address throttle does
 * not stop) is answered 503 with Retry-After beyond the expected wait, never a pile of concurrent hashes or a 500.
 */
describe('a burst of log-ins with wrong passwords, one hash at a time and none waiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDashboardServer({
      // Hashes at the deployments' floor, not the test cost: the burst must find one running to be refused.
      DEVELOPER_PASSWORD_COST: '14',
      DEVELOPER_PASSWORD_HASHES: '1',
      DEVELOPER_PASSWORD_HASH_WAIT_MS: '0',
      // As if from many addresses: the per-address throttle is out of the burst's reach.
      DEVELOPER_LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT: '1000',
      DEVELOPER_LOGIN_ATTEMPTS_PER_CLIENT: '1000',
    });
  });
  afterAll(() => server.close());

  it('answers each 401 or 503 with Retry-After (checked against the contract), and a log-in after it works', async () => {
    // With no queue, any other hash in this server's gate at that moment refuses the sign-up 503 like any other
    // request, so the set-up waits as its Retry-After says.
    const user = await untilHashed(() => signedUpUser(server, uniqueEmail()));
    const burst = Array.from({ length: 24 }, async (_, index) => {
      const caller = await dashboardCaller(server);
      // Half for the account, half for unknown addresses (checked against the decoy hash, made by the first of them
      // through the same gate).
      const email = index % 2 ? user.email : uniqueEmail('nobody');
      const { response, error } = await sdk.logIn({
        client: caller.client,
        body: { email, password: 'not the password at all' },
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), error };
    });
    const answers = await Promise.all(burst);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([401, 503]));
    for (const answer of answers.filter((answer) => answer.status === 503)) {
      expect(answer.retryAfter).toBe('1');
      expect(answer.error).toEqual({
        error: 'Too many passwords are being checked; try again shortly',
        code: 'service_unavailable',
      });
    }
    const caller = await dashboardCaller(server);
    const { response } = await sdk.logIn({
      client: caller.client,
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
  });
});

/** Runs `attempt` again, a Retry-After (1 s) later, while the password gate refuses it; at most 20 tries. */
async function untilHashed<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= 20 || !/failed with 503$/.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
