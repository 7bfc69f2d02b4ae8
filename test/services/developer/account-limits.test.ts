import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { createdApplication, profileWithKey, signedUpUser, startDashboardServer } from './support/dashboard.js';

/**
 * An account's allowance cannot be renewed by new keys: Profiles API
 * lookups count per key and per account (a rotated key or another
 * application's key shares the account's hourly count), an account has at
 * most DEVELOPER_MAX_APPLICATIONS applications, and rotates keys at most
 * DEVELOPER_KEY_ROTATIONS_PER_DAY times in 24 hours.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer({
    RATE_LIMIT_KEYED: '3',
    RATE_LIMIT_ACCOUNT: '3',
    DEVELOPER_MAX_APPLICATIONS: '2',
    // New applications count as new keys too (two applications, three rotations); room for the racing creations below.
    DEVELOPER_KEY_ROTATIONS_PER_DAY: '5',
  });
});
afterAll(() => server?.close());

describe('the hourly allowance of keyed lookups', () => {
  it('is the account’s: neither a rotated key nor another application’s key renews it', async () => {
    const user = await signedUpUser(server);
    const { application, new_key } = await createdApplication(user, 'First');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await profileWithKey(server, new_key.secret)).status);
    expect(statuses).toEqual([200, 200, 200]);

    const rotated = await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
    });
    const afterRotation = await profileWithKey(server, rotated.data!.new_key.secret);
    expect(afterRotation.status).toBe(429);
    expect(afterRotation.body).toEqual({ error: 'Rate limit exceeded', code: 'rate_limit_exceeded' });
    expect(Number(afterRotation.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = await createdApplication(user, 'Second');
    expect((await profileWithKey(server, other.new_key.secret)).status).toBe(429);
  });

  it('of another account is its own', async () => {
    const user = await signedUpUser(server);
    const { new_key } = await createdApplication(user, 'Elsewhere');
    const first = await profileWithKey(server, new_key.secret);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('applications per account', () => {
  it('are at most DEVELOPER_MAX_APPLICATIONS: one more is 403 application_limit_reached until one is deleted', async () => {
    const user = await signedUpUser(server);
    const first = await createdApplication(user, 'One');
    await createdApplication(user, 'Two');
    const body = { name: 'Three', description: '', website_url: 'https://three.example.com' };
    const refused = await sdk.createApplication({ client: user.client, headers: user.csrf, body });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({
      error: 'An account may have at most 2 applications; delete one first',
      code: 'application_limit_reached',
    });
    // Concurrent creations are counted one after the other.
    await sdk.deleteApplication({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: first.application.id },
    });
    const racing = await Promise.all(
      ['Four', 'Five', 'Six'].map((name) =>
        sdk.createApplication({ client: user.client, headers: user.csrf, body: { ...body, name } }),
      ),
    );
    expect(racing.map((result) => result.response.status).sort()).toEqual([201, 403, 403]);
    expect((await sdk.listApplications({ client: user.client })).data!.applications).toHaveLength(2);
  });
});

describe('key rotations per account', () => {
  it('are at most DEVELOPER_KEY_ROTATIONS_PER_DAY in 24 hours, across applications: then 429 with Retry-After', async () => {
    const user = await signedUpUser(server);
    const a = await createdApplication(user, 'A');
    const b = await createdApplication(user, 'B');
    const rotate = (applicationId: string) =>
      sdk.rotateApplicationKey({ client: user.client, headers: user.csrf, path: { applicationId } });
    // Rotating an application that is not the account's is not counted.
    expect((await rotate('00000000-0000-4000-8000-000000000000')).response.status).toBe(404);
    expect((await rotate(a.application.id)).response.status).toBe(200);
    expect((await rotate(b.application.id)).response.status).toBe(200);
    expect((await rotate(b.application.id)).response.status).toBe(200);
    const refused = await rotate(a.application.id);
    expect(refused.response.status).toBe(429);
    expect(refused.error).toEqual({
      error: 'Too many key rotations today; try again later',
      code: 'rate_limit_exceeded',
    });
    const retryAfter = Number(refused.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    // The refused rotation changed nothing: the application's key is still the one issued by the last rotation.
    const listed = (await sdk.listApplications({ client: user.client })).data!.applications.find(
      (app) => app.id === a.application.id,
    )!;
    expect(listed.keys.filter((key) => key.revoked_at === null)).toHaveLength(1);
  });
});
