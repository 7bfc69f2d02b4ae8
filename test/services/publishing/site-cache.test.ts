import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Each instance remembers the sites it read and a user's role capabilities
 * on a site for `SITE_CACHE_MS` (two store reads fewer on every post
 * request; counted in restore.statements.test.ts). Nothing in the API
 * changes either; a change made in the store applies within the bound, as
 * docs/publishing.md says, and at once with `SITE_CACHE_MS=0` (read.test.ts).
 */
// Long enough that two requests in a row always fall within it, however busy the machine (a request took
// seconds with the rest of the suite and other work running beside it).
const BOUND_MS = 8000;
/** How late past the bound a change may be seen: the polling step and a busy machine's delays. */
const SLACK_MS = 4000;
let harness: PublishingTestServer;
let editor: string;

beforeAll(async () => {
  harness = await startPublishing({ SITE_CACHE_MS: String(BOUND_MS) });
  editor = await harness.tokenFor('editor');
  // The first answers of a server compile their validators: done here, so the timed reads below are plain reads.
  expect((await read(harness, undefined, 1, 101)).status).toBeLessThan(500);
  expect((await read(harness, editor, 1, 101)).status).toBeLessThan(500);
  // What those reads remembered is forgotten before the first test remembers it anew.
  await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 50));
});
afterAll(() => harness?.close());

/** Asks `probe` until it answers `status`; the milliseconds from `since` until it did. */
async function untilStatus(probe: () => Promise<{ status: number }>, status: number, since: number): Promise<number> {
  for (;;) {
    if ((await probe()).status === status) return performance.now() - since;
    if (performance.now() - since > BOUND_MS * 3) throw new Error(`still not ${status} after ${BOUND_MS * 3} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the instance remembers sites and role capabilities for SITE_CACHE_MS', () => {
  it('a site made private in the store is refused to outsiders once the remembered site expires, not at once', { timeout: 60_000 }, async () => {
    const db = harness.server.built.db;
    try {
      const remembered = performance.now();
      expect((await read(harness, undefined, 1, 108)).status).toBe(200);
      await db.updateTable('sites').set({ is_private: 1 }).where('id', '=', 1).execute();
      expect((await read(harness, undefined, 1, 108)).status).toBe(200);
      const applied = await untilStatus(() => read(harness, undefined, 1, 108), 403, remembered);
      expect(applied).toBeLessThan(BOUND_MS + SLACK_MS);
      // Its users still read it: their capabilities include `read`.
      expect((await read(harness, editor, 1, 108)).status).toBe(200);
    } finally {
      await db.updateTable('sites').set({ is_private: 0 }).where('id', '=', 1).execute();
    }
  });

  it('a role taken away in the store stops giving its capabilities once the remembered ones expire, not at once', { timeout: 60_000 }, async () => {
    const db = harness.server.built.db;
    const editorId = (await db.selectFrom('users').select('id').where('login', '=', 'editor').executeTakeFirstOrThrow()).id;
    const role = await db.selectFrom('site_roles').selectAll().where('site_id', '=', 1).where('user_id', '=', editorId).executeTakeFirstOrThrow();
    // What the test before remembered of the editor's capabilities is forgotten first: this test's read remembers them anew.
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 50));
    try {
      // A private post: an editor reads it through the role's capabilities.
      const remembered = performance.now();
      expect((await read(harness, editor, 1, 104)).status).toBe(200);
      await db.deleteFrom('site_roles').where('site_id', '=', 1).where('user_id', '=', editorId).execute();
      expect((await read(harness, editor, 1, 104)).status).toBe(200);
      const applied = await untilStatus(() => read(harness, editor, 1, 104), 403, remembered);
      expect(applied).toBeLessThan(BOUND_MS + SLACK_MS);
    } finally {
      await db.insertInto('site_roles').values(role).execute();
    }
  });
});
