import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { hashApiKey, isWellFormedApiKey, issueApiKey } from '../../src/accounts/apiKey.js';
import { kyselyApiKeyRegistry, type ApiKeyRegistry } from '../../src/accounts/apiKeys.js';
import { kyselyDeveloperApplications, type DeveloperApplications } from '../../src/accounts/applications.js';
import type { AccountsTables } from '../../src/accounts/tables.js';
import { accountsStore } from './support.js';

let store: Awaited<ReturnType<typeof accountsStore>>;
let db: Kysely<AccountsTables>;
let registry: ApiKeyRegistry;
let applications: DeveloperApplications;
beforeAll(async () => {
  store = await accountsStore();
  db = store.db;
  registry = kyselyApiKeyRegistry(db);
  applications = kyselyDeveloperApplications(db);
});
afterAll(() => store.close());

const app = (name: string) => ({ name, description: `${name} app`, websiteUrl: `https://${name}.example.com` });
const newKey = () => {
  const issued = issueApiKey();
  return { issued, stored: { hash: issued.hash, displayPrefix: issued.displayPrefix } };
};
/** Lets the clock move on, so rows made one after the other have distinct creation times (ties order by random id). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const account = async (email: string) => (await createAccount(db, email, new Date().toISOString())) as string;

describe('an issued API key', () => {
  it('is pk_ and 256 random bits; the store keeps its SHA-256 hex and a display prefix, never the key', () => {
    const { key, hash, displayPrefix } = issueApiKey();
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(displayPrefix)).toBe(true);
    expect(displayPrefix).toHaveLength(11);
    expect(issueApiKey().key).not.toBe(key);
    expect(isWellFormedApiKey('pk_short')).toBe(false);
  });
});

/** More applications than any test here makes: the cap itself is tested in test/services/developer/account-limits.test.ts. */
const MAX_APPLICATIONS = 100;

describe('applications and their keys (the dashboard)', () => {
  it('create: an application with its first key, which looks up to that key; a second of the same name is name-taken', async () => {
    const owner = await account('create@example.com');
    const { issued, stored } = newKey();
    const created = await applications.createApplication(owner, app('shop'), stored, MAX_APPLICATIONS);
    if (typeof created === 'string') throw new Error('unexpected');
    expect(created.application).toMatchObject({
      name: 'shop',
      description: 'shop app',
      websiteUrl: 'https://shop.example.com',
    });
    expect(created.application.keys).toEqual([
      expect.objectContaining({
        id: created.keyId,
        displayPrefix: issued.displayPrefix,
        lastUsedAt: null,
        revokedAt: null,
      }),
    ]);
    expect((await registry.findActiveKey(issued.hash))?.keyId).toBe(created.keyId);
    expect(await applications.createApplication(owner, app('shop'), newKey().stored, MAX_APPLICATIONS)).toBe(
      'name-taken',
    );
    // Another account may use the name.
    expect(
      await applications.createApplication(
        await account('other@example.com'),
        app('shop'),
        newKey().stored,
        MAX_APPLICATIONS,
      ),
    ).not.toBe('name-taken');
  });

  it('create racing for one name: exactly one wins, the other is name-taken (the unique constraint decides)', async () => {
    const owner = await account('race@example.com');
    const results = await Promise.all(
      [1, 2, 3].map(() => applications.createApplication(owner, app('race'), newKey().stored, MAX_APPLICATIONS)),
    );
    expect(results.filter((r) => r === 'name-taken')).toHaveLength(2);
    expect(await applications.listApplications(owner)).toHaveLength(1);
  });

  it('rotate: a new key; every older active key stops working at once', async () => {
    const owner = await account('rotate@example.com');
    const first = newKey();
    const created = await applications.createApplication(owner, app('rotating'), first.stored, MAX_APPLICATIONS);
    if (typeof created === 'string') throw new Error('unexpected');
    const second = newKey();
    await tick();
    const rotated = await applications.rotateKey(owner, created.application.id, second.stored);
    expect(rotated?.keyId).toBeDefined();
    expect(await registry.findActiveKey(first.issued.hash)).toBeUndefined();
    expect((await registry.findActiveKey(second.issued.hash))?.keyId).toBe(rotated!.keyId);
    // Active keys first, then revoked ones.
    expect(rotated!.application.keys.map((key) => [key.id, key.revokedAt === null])).toEqual([
      [rotated!.keyId, true],
      [created.keyId, false],
    ]);
    // Another account cannot rotate it: the same as an application that does not exist.
    expect(
      await applications.rotateKey(await account('intruder@example.com'), created.application.id, newKey().stored),
    ).toBeUndefined();
    expect(await applications.rotateKey(owner, crypto.randomUUID(), newKey().stored)).toBeUndefined();
  });

  it('revoke: one key stops working and keeps its revocation time; unknown or foreign keys are undefined', async () => {
    const owner = await account('revoke@example.com');
    const { issued, stored } = newKey();
    const created = await applications.createApplication(owner, app('revoking'), stored, MAX_APPLICATIONS);
    if (typeof created === 'string') throw new Error('unexpected');
    const revoked = await applications.revokeKey(owner, created.application.id, created.keyId);
    const revokedAt = revoked!.keys[0]!.revokedAt;
    expect(revokedAt).not.toBeNull();
    expect(await registry.findActiveKey(issued.hash)).toBeUndefined();
    const again = await applications.revokeKey(owner, created.application.id, created.keyId);
    expect(again!.keys[0]!.revokedAt).toBe(revokedAt);
    expect(
      await applications.revokeKey(await account('foreign@example.com'), created.application.id, created.keyId),
    ).toBeUndefined();
    expect(await applications.revokeKey(owner, created.application.id, crypto.randomUUID())).toBeUndefined();
  });

  it('delete: the application and its keys are gone; only the owner can', async () => {
    const owner = await account('delete@example.com');
    const { issued, stored } = newKey();
    const created = await applications.createApplication(owner, app('deleting'), stored, MAX_APPLICATIONS);
    if (typeof created === 'string') throw new Error('unexpected');
    expect(await applications.deleteApplication(await account('thief@example.com'), created.application.id)).toBe(
      false,
    );
    expect(await applications.deleteApplication(owner, created.application.id)).toBe(true);
    expect(await registry.findActiveKey(issued.hash)).toBeUndefined();
    expect(
      await db.selectFrom('api_keys').select('id').where('application_id', '=', created.application.id).execute(),
    ).toEqual([]);
    expect(await applications.deleteApplication(owner, created.application.id)).toBe(false);
  });

  it("list: only the account's own applications, newest first", async () => {
    const owner = await account('list@example.com');
    for (const name of ['one', 'two']) {
      await applications.createApplication(owner, app(name), newKey().stored, MAX_APPLICATIONS);
      await tick();
    }
    await applications.createApplication(
      await account('neighbour@example.com'),
      app('three'),
      newKey().stored,
      MAX_APPLICATIONS,
    );
    expect((await applications.listApplications(owner)).map((a) => a.name)).toEqual(['two', 'one']);
  });
});

describe('the key registry (profiles lookups and the admin command line)', () => {
  it('create: makes the account and the application when missing, reuses them otherwise', async () => {
    const first = newKey();
    const made = await registry.createApiKey({ email: 'cli@example.com', application: app('cli'), key: first.stored });
    expect([made.accountCreated, made.applicationCreated]).toEqual([true, true]);
    const again = await registry.createApiKey({
      email: 'CLI@example.com',
      application: app('cli'),
      key: newKey().stored,
    });
    expect([again.accountCreated, again.applicationCreated, again.applicationId]).toEqual([
      false,
      false,
      made.applicationId,
    ]);
    const other = await registry.createApiKey({
      email: 'cli@example.com',
      application: app('cli-2'),
      key: newKey().stored,
    });
    expect([other.accountCreated, other.applicationCreated]).toEqual([false, true]);
    expect((await registry.findActiveKey(first.issued.hash))?.keyId).toBe(made.keyId);
  });

  it('lookup: records the use beside the request (not awaited), at most once a minute; an unknown hash is undefined', async () => {
    const { issued, stored } = newKey();
    const { keyId } = await registry.createApiKey({ email: 'used@example.com', application: app('used'), key: stored });
    const lastUsed = async () =>
      (await db.selectFrom('api_keys').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow())
        .last_used_at;
    expect(await lastUsed()).toBeNull();
    expect((await registry.findActiveKey(issued.hash))?.keyId).toBe(keyId);
    const first = await vi.waitFor(async () => {
      const recorded = await lastUsed();
      expect(recorded).not.toBeNull();
      return recorded;
    });
    await registry.findActiveKey(issued.hash);
    // A second write, if any, would have landed by the time a later query answers.
    await lastUsed();
    expect(await lastUsed()).toBe(first);
    expect(await registry.findActiveKey(hashApiKey('pk_unknown'))).toBeUndefined();
  });

  it('revoke: revoked, then already-revoked; unknown for no such key', async () => {
    const { issued, stored } = newKey();
    const { keyId } = await registry.createApiKey({
      email: 'cli-revoke@example.com',
      application: app('r'),
      key: stored,
    });
    expect(await registry.revokeApiKey(keyId)).toBe('revoked');
    expect(await registry.revokeApiKey(keyId)).toBe('already-revoked');
    expect(await registry.revokeApiKey(crypto.randomUUID())).toBe('unknown');
    expect(await registry.findActiveKey(issued.hash)).toBeUndefined();
  });

  it('list: every key of the account by application, oldest first; undefined for an unknown account', async () => {
    const a = newKey();
    const b = newKey();
    await registry.createApiKey({ email: 'lister@example.com', application: app('first'), key: a.stored });
    await tick();
    await registry.createApiKey({ email: 'lister@example.com', application: app('second'), key: b.stored });
    const listed = await registry.listApiKeys('Lister@example.com');
    expect(listed?.map((key) => [key.application, key.displayPrefix])).toEqual([
      ['first', a.issued.displayPrefix],
      ['second', b.issued.displayPrefix],
    ]);
    expect(await registry.listApiKeys('nobody@example.com')).toBeUndefined();
  });
});
