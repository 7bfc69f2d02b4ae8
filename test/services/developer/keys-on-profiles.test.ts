import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import {
  createdApplication,
  profileWithKey,
  signedUpUser,
  startDashboardServer,
  type DashboardUser,
} from './support/dashboard.js';

/**
 * "A key created here works at once on GET /v3/profiles/{id} (full fields,
 * keyed rate limit); a revoked one stops working at once."
 */
let server: TestServer;
let user: DashboardUser;

beforeAll(async () => {
  server = await startDashboardServer({ RATE_LIMIT_ANONYMOUS: '100', RATE_LIMIT_KEYED: '1000' });
  user = await signedUpUser(server);
});
afterAll(() => server.close());

const expectKeyed = (answer: Awaited<ReturnType<typeof profileWithKey>>) => {
  expect(answer.status).toBe(200);
  expect(answer.body).toHaveProperty('links');
  expect(answer.body).toHaveProperty('number_verified_accounts');
  expect(answer.headers.get('x-ratelimit-limit')).toBe('1000');
};

const expectAnonymous = (answer: Awaited<ReturnType<typeof profileWithKey>>) => {
  expect(answer.status).toBe(200);
  expect(answer.body).not.toHaveProperty('links');
  expect(answer.body).not.toHaveProperty('number_verified_accounts');
  expect(answer.headers.get('x-ratelimit-limit')).toBe('100');
};

describe('a key from the dashboard on the Profiles API', () => {
  it('gets the full profile at once, and the anonymous one at once after it is revoked', async () => {
    const { application, new_key } = await createdApplication(user, 'Revoked at once');
    expectKeyed(await profileWithKey(server, new_key.secret));
    await sdk.revokeApiKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id, keyId: new_key.id },
    });
    expectAnonymous(await profileWithKey(server, new_key.secret));
  });

  it('after a rotation: the old key is refused, the new one works', async () => {
    const { application, new_key: old } = await createdApplication(user, 'Rotated');
    const { data } = await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
    });
    expectAnonymous(await profileWithKey(server, old.secret));
    expectKeyed(await profileWithKey(server, data!.new_key.secret));
  });

  it('after the application is deleted: its key is refused', async () => {
    const { application, new_key } = await createdApplication(user, 'Deleted');
    expectKeyed(await profileWithKey(server, new_key.secret));
    await sdk.deleteApplication({ client: user.client, headers: user.csrf, path: { applicationId: application.id } });
    expectAnonymous(await profileWithKey(server, new_key.secret));
  });

  it("shows the key's last use in the list", async () => {
    const { application, new_key } = await createdApplication(user, 'Used');
    const before = Date.now();
    await profileWithKey(server, new_key.secret);
    // The use is recorded beside the request, not before its answer: it shows within moments.
    await vi.waitFor(
      async () => {
        const { data } = await sdk.listApplications({ client: user.client });
        const key = data!.applications.find((candidate) => candidate.id === application.id)!.keys[0]!;
        expect(key.id).toBe(new_key.id);
        expect(Date.parse(key.last_used_at!)).toBeGreaterThanOrEqual(before - 1000);
      },
      { timeout: 3000, interval: 50 },
    );
  });
});
