import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * An account's applications and keys: created with a key shown once,
 * listed by prefix, rotated, revoked, deleted; "visible to it alone".
 */
let server: TestServer;

beforeAll(async () => {
  server = await startDashboardServer();
});
afterAll(() => server.close());

const NEW_APPLICATION = {
  name: 'Weather widget',
  description: 'Shows profiles next to forecasts.',
  website_url: 'https://weather.example.com',
};

describe('create an application', () => {
  it('creates it with one active key and shows the key in this answer only', async () => {
    const user = await signedUpUser(server);
    const { data, response } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: NEW_APPLICATION,
    });
    expect(response.status).toBe(201);
    const { application, new_key } = data!;
    expect(application).toMatchObject({
      name: 'Weather widget',
      description: NEW_APPLICATION.description,
      website_url: NEW_APPLICATION.website_url,
    });
    expect(new_key.secret).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(new_key.secret.startsWith(new_key.prefix)).toBe(true);
    expect(new_key.prefix.length).toBeLessThan(16);
    expect(application.keys).toEqual([
      { id: new_key.id, prefix: new_key.prefix, created_at: new_key.created_at, last_used_at: null, revoked_at: null },
    ]);

    const listed = await sdk.listApplications({ client: user.client });
    expect(listed.data?.applications).toEqual([application]);
    expect(JSON.stringify(listed.data)).not.toContain(new_key.secret.slice(new_key.prefix.length));
  });

  it('keeps only the SHA-256 of the key', async () => {
    const user = await signedUpUser(server);
    const { new_key } = await createdApplication(user);
    const row = await server.built.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', new_key.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(new_key.secret).digest('hex'));
    expect(Object.values(row)).not.toContain(new_key.secret);
  });

  it('trims the name and description', async () => {
    const user = await signedUpUser(server);
    const { data } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: { ...NEW_APPLICATION, name: '  Spaced out  ', description: '  A description.\n' },
    });
    expect(data?.application.name).toBe('Spaced out');
    expect(data?.application.description).toBe('A description.');
  });

  it('refuses a second application of the same name in one account, but not in another', async () => {
    const user = await signedUpUser(server);
    await createdApplication(user, 'Twice');
    const { error, response } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: { ...NEW_APPLICATION, name: ' Twice ' },
    });
    expect(response.status).toBe(409);
    expect(error).toEqual({ error: 'You already have an application named "Twice"', code: 'application_name_taken' });
    expect((await sdk.listApplications({ client: user.client })).data?.applications).toHaveLength(1);

    const other = await signedUpUser(server);
    expect(
      (
        await sdk.createApplication({
          client: other.client,
          headers: other.csrf,
          body: { ...NEW_APPLICATION, name: 'Twice' },
        })
      ).response.status,
    ).toBe(201);
  });

  it.each([
    ['a javascript: website', { website_url: 'javascript:alert(1)' }, 'website_url'],
    ['a relative website', { website_url: '/relative' }, 'website_url'],
    ['a blank name', { name: '   ' }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a description of 501 characters', { description: 'd'.repeat(501) }, 'description'],
  ])('refuses %s', async (_case, change, field) => {
    const user = await signedUpUser(server);
    const { error, response } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: { ...NEW_APPLICATION, ...change },
    });
    expect(response.status).toBe(400);
    expect(error?.code).toBe('invalid_request');
    expect(error?.error).toMatch(new RegExp(`^Invalid body field ${field}: `));
  });

  it('refuses a body without a website', async () => {
    const user = await signedUpUser(server);
    const { error, response } = await sdk.createApplication({
      client: user.client,
      headers: user.csrf,
      body: { name: 'No site', description: '' } as typeof NEW_APPLICATION,
    });
    expect(response.status).toBe(400);
    expect(error?.error).toBe("Invalid body field website_url: must have required property 'website_url'");
  });
});

describe('list my applications', () => {
  it('lists them newest first', async () => {
    const user = await signedUpUser(server);
    for (const name of ['First', 'Second', 'Third']) await createdApplication(user, name);
    const { data } = await sdk.listApplications({ client: user.client });
    expect(data?.applications.map((application) => application.name)).toEqual(['Third', 'Second', 'First']);
  });

  it('is empty for a new account', async () => {
    const user = await signedUpUser(server);
    expect((await sdk.listApplications({ client: user.client })).data).toEqual({ applications: [] });
  });
});

describe('rotate a key', () => {
  it('issues a new key, shown once, and revokes the active one in the same step', async () => {
    const user = await signedUpUser(server);
    const created = await createdApplication(user);
    const { data, response } = await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: created.application.id },
    });
    expect(response.status).toBe(200);
    const { application, new_key } = data!;
    expect(new_key.secret).toMatch(/^pk_/);
    expect(new_key.secret).not.toBe(created.new_key.secret);
    expect(application.keys.map((key) => key.id)).toEqual([new_key.id, created.new_key.id]);
    expect(application.keys[0]).toMatchObject({ revoked_at: null });
    expect(application.keys[1]?.revoked_at).toBe(new_key.created_at);
  });

  it('revokes every active key of the application', async () => {
    const user = await signedUpUser(server);
    const created = await createdApplication(user);
    const first = await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: created.application.id },
    });
    const second = await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: created.application.id },
    });
    const keys = second.data!.application.keys;
    expect(keys).toHaveLength(3);
    expect(keys.filter((key) => key.revoked_at === null).map((key) => key.id)).toEqual([second.data!.new_key.id]);
    expect(keys.find((key) => key.id === first.data!.new_key.id)?.revoked_at).not.toBeNull();
  });

  it('leaves one active key after rotations at once: each revokes the key the one before it added', async () => {
    // Each revoked only the keys its statement saw: on PostgreSQL 8 rotations at once left 4 keys active.
    const user = await signedUpUser(server);
    const created = await createdApplication(user);
    const rotations = await Promise.all(
      Array.from({ length: 8 }, () =>
        sdk.rotateApplicationKey({
          client: user.client,
          headers: user.csrf,
          path: { applicationId: created.application.id },
        }),
      ),
    );
    expect(rotations.map((rotation) => rotation.response.status)).toEqual(rotations.map(() => 200));
    const { data } = await sdk.listApplications({ client: user.client });
    const keys = data!.applications.find((application) => application.id === created.application.id)!.keys;
    expect(keys).toHaveLength(9);
    const active = keys.filter((key) => key.revoked_at === null).map((key) => key.id);
    expect(active).toHaveLength(1);
    expect(rotations.map((rotation) => rotation.data!.new_key.id)).toContain(active[0]);
  });

  it('beside a deletion at once: each rotation is before it (200) or after it (404), never a deadlock', async () => {
    // Both hold the application's row first: when a rotation held it and a deletion held the keys first, each waited
    // on the other's rows, and PostgreSQL broke the circle by failing one of them (503).
    for (const round of [1, 2, 3]) {
      // A user a round: a day's key rotations and new applications are counted per account.
      const user = await signedUpUser(server);
      const { application } = await createdApplication(user, `Deleted while rotated ${round}`);
      const path = { applicationId: application.id };
      const rotate = async () =>
        (await sdk.rotateApplicationKey({ client: user.client, headers: user.csrf, path })).response.status;
      const statuses = await Promise.all([
        rotate(),
        rotate(),
        (async () =>
          (await sdk.deleteApplication({ client: user.client, headers: user.csrf, path })).response.status)(),
        rotate(),
        rotate(),
      ]);
      expect(statuses[2]).toBe(204);
      for (const status of [...statuses.slice(0, 2), ...statuses.slice(3)]) expect([200, 404]).toContain(status);
    }
  });
});

describe('revoke a key', () => {
  it('revokes it; revoking it again changes nothing', async () => {
    const user = await signedUpUser(server);
    const { application, new_key } = await createdApplication(user);
    const path = { applicationId: application.id, keyId: new_key.id };
    const { data, response } = await sdk.revokeApiKey({ client: user.client, headers: user.csrf, path });
    expect(response.status).toBe(200);
    const revokedAt = data!.keys[0]!.revoked_at;
    expect(Date.parse(revokedAt!)).toBeGreaterThanOrEqual(Date.parse(new_key.created_at));

    const again = await sdk.revokeApiKey({ client: user.client, headers: user.csrf, path });
    expect(again.response.status).toBe(200);
    expect(again.data?.keys[0]?.revoked_at).toBe(revokedAt);
  });

  it('answers 404 for a key of another application of the same account', async () => {
    const user = await signedUpUser(server);
    const one = await createdApplication(user, 'One');
    const two = await createdApplication(user, 'Two');
    const { error, response } = await sdk.revokeApiKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: one.application.id, keyId: two.new_key.id },
    });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: 'Key not found', code: 'not_found' });
    expect((await profileWithKey(server, two.new_key.secret)).body).toHaveProperty('links');
  });
});

describe('delete an application', () => {
  it('deletes it and its keys', async () => {
    const user = await signedUpUser(server);
    const { application } = await createdApplication(user);
    await sdk.rotateApplicationKey({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
    });
    const { response } = await sdk.deleteApplication({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
    });
    expect(response.status).toBe(204);
    expect((await sdk.listApplications({ client: user.client })).data?.applications).toEqual([]);
    const keys = await server.built.db
      .selectFrom('api_keys')
      .select('id')
      .where('application_id', '=', application.id)
      .execute();
    expect(keys).toEqual([]);

    const again = await sdk.deleteApplication({
      client: user.client,
      headers: user.csrf,
      path: { applicationId: application.id },
    });
    expect(again.response.status).toBe(404);
    expect(again.error).toEqual({ error: 'Application not found', code: 'not_found' });
  });

  it('frees the name for a new application', async () => {
    const user = await signedUpUser(server);
    const { application } = await createdApplication(user, 'Reborn');
    await sdk.deleteApplication({ client: user.client, headers: user.csrf, path: { applicationId: application.id } });
    expect(
      (
        await sdk.createApplication({
          client: user.client,
          headers: user.csrf,
          body: { ...NEW_APPLICATION, name: 'Reborn' },
        })
      ).response.status,
    ).toBe(201);
  });
});

describe("someone else's application", () => {
  let owner: DashboardUser;
  let intruder: DashboardUser;
  let created: Awaited<ReturnType<typeof createdApplication>>;

  beforeAll(async () => {
    owner = await signedUpUser(server);
    intruder = await signedUpUser(server);
    created = await createdApplication(owner, 'Private');
  });

  it('is not listed', async () => {
    await createdApplication(intruder, 'Mine');
    const { data } = await sdk.listApplications({ client: intruder.client });
    expect(data?.applications.map((application) => application.name)).toEqual(['Mine']);
  });

  const attempts: [string, () => Promise<{ response: Response; error?: unknown }>][] = [
    [
      'rotate its key',
      () =>
        sdk.rotateApplicationKey({
          client: intruder.client,
          headers: intruder.csrf,
          path: { applicationId: created.application.id },
        }),
    ],
    [
      'revoke its key',
      () =>
        sdk.revokeApiKey({
          client: intruder.client,
          headers: intruder.csrf,
          path: { applicationId: created.application.id, keyId: created.new_key.id },
        }),
    ],
    [
      'delete it',
      () =>
        sdk.deleteApplication({
          client: intruder.client,
          headers: intruder.csrf,
          path: { applicationId: created.application.id },
        }),
    ],
  ];

  it.each(attempts)('cannot %s: 404, as if it did not exist, and nothing changes', async (_action, attempt) => {
    const { response, error } = await attempt();
    expect(response.status).toBe(404);
    expect((error as { code: string }).code).toBe('not_found');
    const { data } = await sdk.listApplications({ client: owner.client });
    expect(
      data?.applications.map(({ id, name, keys }) => ({ id, name, keys: keys.map((key) => [key.id, key.revoked_at]) })),
    ).toEqual([{ id: created.application.id, name: 'Private', keys: [[created.new_key.id, null]] }]);
    expect((await profileWithKey(server, created.new_key.secret)).body).toHaveProperty('links');
  });

  it('answers an unknown application the same way', async () => {
    const { error, response } = await sdk.deleteApplication({
      client: intruder.client,
      headers: intruder.csrf,
      path: { applicationId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: 'Application not found', code: 'not_found' });
  });
});
