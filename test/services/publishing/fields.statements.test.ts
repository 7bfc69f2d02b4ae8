import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertSurroundedPosts,
  postRow,
  CALLERS_REMEMBERED,
  startPublishing,
  statementsAfterChange,
  type PublishingTestServer,
} from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing(CALLERS_REMEMBERED);
  admin = await harness.tokenFor('admin');
  // 25 posts, published and drafts, in the demo post's terms, with metadata: every kind of row has something to read.
  await insertSurroundedPosts(
    harness,
    Array.from({ length: 25 }, (_, i) =>
      postRow({
        id: 3000 + i,
        status: i % 2 ? 'draft' : 'publish',
        date: `2026-06-01T10:${String(i).padStart(2, '0')}:00.000Z`,
      }),
    ),
  );
});
afterAll(() => harness?.close());

/** The statements run while `path` is answered to the admin, after a change (nothing of an earlier read is kept). */
const statementsOf = (path: string): Promise<string[]> =>
  statementsAfterChange(harness, async () => {
    const response = await harness.call(`${harness.server.url}/rest/v1.1${path}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
  });

/** Statements that read what surrounds a post: authors, ancestors, terms, attachments, counts, metadata, revisions, slugs. */
const relationReads = (statements: string[]) =>
  statements.filter(
    (text) =>
      /\bfrom\s+"?(users|post_terms|attachments|post_meta|likes|comments|revisions)"?/i.test(text) ||
      // The ancestors (a level of parents at a time), and whether a draft's suggested slug is free.
      /\bfrom\s+"?posts"?\s+where\s+"?id"?\s+in\b/i.test(text) ||
      /^select\s+"?slug"?\s+from\s+"?posts"?/i.test(text),
  );

/**
 * A list asked for a few keys (`fields`, as the apps sync: `ID,modified`,
 * or Android's `ID,modified,status,meta`) builds only those, and reads
 * nothing around its posts those keys do not need: fewer statements than
 * the whole list, and as many for a page of 20 as for a page of 2.
 */
describe('the statements of a list asked for a few fields', () => {
  const LIST = '/sites/1/posts/?status=any';

  for (const fields of ['ID,modified', 'ID,modified,status,meta']) {
    it(`fields=${fields}: the list's own statements only, whatever the page`, async () => {
      const q = `&fields=${encodeURIComponent(fields)}`;
      await statementsOf(`${LIST}&number=2${q}`);
      const two = await statementsOf(`${LIST}&number=2${q}`);
      const twenty = await statementsOf(`${LIST}&number=20${q}`);
      const whole = await statementsOf(`${LIST}&number=20`);
      expect(twenty.length, twenty.join('\n')).toBe(two.length);
      expect(relationReads(twenty), twenty.join('\n')).toEqual([]);
      expect(twenty.length, twenty.join('\n')).toBeLessThan(whole.length);
      // The whole list reads what surrounds its posts (and a slug for each draft).
      expect(relationReads(whole).length, whole.join('\n')).toBeGreaterThan(5);
    });
  }

  it('a key needing one part reads that part only (fields=ID,tags: the terms and their counts)', async () => {
    const statements = await statementsOf(`${LIST}&number=20&fields=ID,tags`);
    const reads = relationReads(statements);
    expect(reads, statements.join('\n')).toHaveLength(2);
    expect(
      reads.every((text) => /post_terms/i.test(text)),
      reads.join('\n'),
    ).toBe(true);
  });

  it('a single read with fields=ID,modified reads nothing around the post', async () => {
    const whole = await statementsOf('/sites/1/posts/3001');
    const few = await statementsOf('/sites/1/posts/3001?fields=ID,modified');
    expect(relationReads(few), few.join('\n')).toEqual([]);
    expect(few.length, few.join('\n')).toBeLessThan(whole.length);
  });
});
