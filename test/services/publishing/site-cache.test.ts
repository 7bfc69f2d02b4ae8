import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedSites } from '../../../src/services/publishing/store/cachedSites.js';
import { createKyselyPublishingStore } from '../../../src/services/publishing/store/kyselyPublishingStore.js';
import { read, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Each instance remembers the sites it read and a user's role capabilities
 * on a site for `SITE_CACHE_MS` (two store reads fewer on every post
 * request; counted in restore.statements.test.ts). Nothing in the API
 * changes either; a change made in the store applies within the bound, as
 * docs/publishing.md says, and at once with `SITE_CACHE_MS=0` (read.test.ts).
 *
 * The server's cache is proved to keep what it read (a change is not seen at
 * once); when a change is seen is proved on the same store through
 * `cachedSites` with a clock of the test's own, so no test waits for the
 * bound to pass on the real clock.
 */
// Far longer than any run of this file: what the server remembers is never forgotten during it.
const BOUND_MS = 600_000;
let harness: PublishingTestServer;
let editor: string;
let editorId: number;

beforeAll(async () => {
  harness = await startPublishing({ SITE_CACHE_MS: String(BOUND_MS) });
  editor = await harness.tokenFor('editor');
  editorId = (
    await harness.server.built.db
      .selectFrom('users')
      .select('id')
      .where('login', '=', 'editor')
      .executeTakeFirstOrThrow()
  ).id;
  // The first answers of a server compile their validators: done here, within the hook's time, not a test's.
  expect((await read(harness, undefined, 1, 101)).status).toBeLessThan(500);
  expect((await read(harness, editor, 1, 101)).status).toBeLessThan(500);
});
afterAll(() => harness?.close());

/** Runs `change` on the store, then `check`, and undoes the change whatever happened. */
async function whileChanged(
  change: 'site made private' | 'role taken away',
  check: () => Promise<void>,
): Promise<void> {
  const db = harness.server.built.db;
  const role = await db
    .selectFrom('site_roles')
    .selectAll()
    .where('site_id', '=', 1)
    .where('user_id', '=', editorId)
    .executeTakeFirstOrThrow();
  try {
    if (change === 'site made private')
      await db.updateTable('sites').set({ is_private: 1 }).where('id', '=', 1).execute();
    else await db.deleteFrom('site_roles').where('site_id', '=', 1).where('user_id', '=', editorId).execute();
    await check();
  } finally {
    if (change === 'site made private')
      await db.updateTable('sites').set({ is_private: 0 }).where('id', '=', 1).execute();
    else await db.insertInto('site_roles').values(role).execute();
  }
}

describe('the server remembers sites and role capabilities for SITE_CACHE_MS', () => {
  it('a site made private in the store is still read by outsiders while the server remembers it', async () => {
    expect((await read(harness, undefined, 1, 108)).status).toBe(200);
    await whileChanged('site made private', async () => {
      expect((await read(harness, undefined, 1, 108)).status).toBe(200);
    });
  });

  it('a role taken away in the store still gives its capabilities while the server remembers them', async () => {
    // A private post: an editor reads it through the role's capabilities.
    expect((await read(harness, editor, 1, 104)).status).toBe(200);
    await whileChanged('role taken away', async () => {
      expect((await read(harness, editor, 1, 104)).status).toBe(200);
    });
  });
});

describe('cachedSites on the store, with a clock of its own', () => {
  const TTL_MS = 1000;
  /** The store of the test's server behind a cache whose clock is `clock.ms`. */
  function cachedStore() {
    // Not 0: the cache takes an entry made at 0 for one without a lifetime.
    const clock = { ms: 1_000_000 };
    return { clock, store: cachedSites(createKyselyPublishingStore(harness.server.built.db), TTL_MS, () => clock.ms) };
  }

  it('sees a site made private in the store once the remembered site is older than the bound, not before', async () => {
    const { clock, store } = cachedStore();
    expect((await store.findSite({ kind: 'id', id: 1 }))?.isPrivate).toBe(false);
    expect((await store.findSite({ kind: 'address', domain: 'demo.example.com', path: '' }))?.isPrivate).toBe(false);
    await whileChanged('site made private', async () => {
      clock.ms += TTL_MS - 1;
      expect((await store.findSite({ kind: 'id', id: 1 }))?.isPrivate).toBe(false);
      expect((await store.findSite({ kind: 'address', domain: 'demo.example.com', path: '' }))?.isPrivate).toBe(false);
      clock.ms += 2;
      expect((await store.findSite({ kind: 'id', id: 1 }))?.isPrivate).toBe(true);
      expect((await store.findSite({ kind: 'address', domain: 'demo.example.com', path: '' }))?.isPrivate).toBe(true);
    });
  });

  it('stops giving the capabilities of a role taken away in the store once they are older than the bound, not before', async () => {
    const { clock, store } = cachedStore();
    const before = await store.capabilitiesOf(1, editorId);
    expect(before.has('read_private_posts')).toBe(true);
    await whileChanged('role taken away', async () => {
      clock.ms += TTL_MS - 1;
      expect(await store.capabilitiesOf(1, editorId)).toBe(before);
      clock.ms += 2;
      expect((await store.capabilitiesOf(1, editorId)).has('read_private_posts')).toBe(false);
    });
  });

  it('remembers an unknown site too, until the bound', async () => {
    const { clock, store } = cachedStore();
    const db = harness.server.built.db;
    const unknown = { kind: 'id', id: 987_654 } as const;
    expect(await store.findSite(unknown)).toBeUndefined();
    const site = await db.selectFrom('sites').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    await db
      .insertInto('sites')
      .values({ ...site, id: unknown.id, domain: 'later.example.com' })
      .execute();
    try {
      expect(await store.findSite(unknown)).toBeUndefined();
      clock.ms += TTL_MS + 1;
      expect((await store.findSite(unknown))?.domain).toBe('later.example.com');
    } finally {
      await db.deleteFrom('sites').where('id', '=', unknown.id).execute();
    }
  });
});
