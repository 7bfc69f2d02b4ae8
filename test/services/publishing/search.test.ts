import { SqliteAdapter } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreUnavailable, StoreBusyError } from '../../../src/platform/store/unavailable.js';
import { searchTerms } from '../../../src/services/publishing/domain/searchTerms.js';
import { matchingIds } from '../../../src/services/publishing/store/kysely/postSearch.js';
import { insertPosts, list, postRow, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
  await insertPosts(harness, [
    postRow({ id: 5001, slug: 's-5001', title: 'Quokka sightings', content: 'plain words' }),
    postRow({ id: 5002, slug: 's-5002', title: 'Garden', content: 'A QUOKKA in the garden, 100% sure' }),
    postRow({ id: 5003, slug: 's-5003', title: 'Notes', content: 'nothing here', excerpt: 'Quokka notes' }),
    postRow({ id: 5004, slug: 's-5004', title: 'Wombat and quokka', content: 'under_score back\\slash' }),
    postRow({ id: 5005, slug: 's-5005', title: 'Wombat burrow', content: 'under score zq' }),
  ]);
});
afterAll(() => harness?.close());

/** The IDs, in ID order, of site 1's posts that `search` finds for the admin. */
async function found(search: string): Promise<number[]> {
  const { status, body } = await list(harness, admin, 1, { search, number: 100, order_by: 'ID', order: 'ASC' });
  expect(status).toBe(200);
  expect(body.found).toBe(body.posts.length);
  return (body.posts as { ID: number }[]).map((post) => post.ID);
}

describe('search (the platform\u2019s WP_Query `s`, through the index)', () => {
  it('finds a term in the title, the content or the excerpt, in any case', async () => {
    expect(await found('quokka')).toEqual([5001, 5002, 5003, 5004]);
    expect(await found('QuOkKa')).toEqual([5001, 5002, 5003, 5004]);
    expect(await found('sightings')).toEqual([5001]);
    expect(await found('KA NOT')).toEqual([5003]);
  });

  it('wants every term, each in any of the three; `-term` excludes; a quoted phrase is one term; commas and `+` separate', async () => {
    expect(await found('quokka wombat')).toEqual([5004]);
    expect(await found('wombat,quokka')).toEqual([5004]);
    expect(await found('wombat+quokka')).toEqual([5004]);
    // Each term in another column of the same post.
    expect(await found('garden quokka 100')).toEqual([5002]);
    expect(await found('wombat -quokka')).toEqual([5005]);
    expect(await found('-quokka wombat')).toEqual([5005]);
    expect(await found('-sightings quokka -garden')).toEqual([5003, 5004]);
    expect(await found('"quokka notes"')).toEqual([5003]);
    expect(await found('"notes quokka"')).toEqual([]);
    // Single letters and stopwords are left out, as the platform does.
    expect(await found('the quokka x about')).toEqual([5001, 5002, 5003, 5004]);
  });

  it('matches `%`, `_` and `\\` as themselves, never as wildcards', async () => {
    expect(await found('100%')).toEqual([5002]);
    expect(await found('QUOKKA%garden')).toEqual([]);
    expect(await found('der_sco')).toEqual([5004]);
    expect(await found('k\\s')).toEqual([5004]);
    expect(await found('k\\\\s')).toEqual([]);
  });

  it('finds terms shorter than three characters (no piece for the index to name)', async () => {
    expect(await found('zq')).toEqual([5005]);
    expect(await found('zq wombat')).toEqual([5005]);
    expect(await found('%')).toEqual([5002]);
  });

  it('follows every write to the posts, whoever writes (the index is kept by the database)', async () => {
    await insertPosts(harness, [postRow({ id: 5006, slug: 's-5006', title: 'Numbat', content: 'a quokka too' })]);
    expect(await found('numbat quokka')).toEqual([5006]);
    const { db } = harness.server.built;
    await db.updateTable('posts').set({ title: 'Renamed', content: 'no marsupial' }).where('id', '=', 5006).execute();
    expect(await found('numbat')).toEqual([]);
    expect(await found('renamed marsupial')).toEqual([5006]);
    await db.deleteFrom('posts').where('id', '=', 5006).execute();
    expect(await found('renamed')).toEqual([]);
  });

  it('splits as the platform does: a search of only short terms or of ten terms or more is one term', () => {
    expect(searchTerms('a b')).toEqual([{ text: 'a b', exclude: false }]);
    expect(searchTerms('one two three four five six seven eight nine ten')).toEqual([
      { text: 'one two three four five six seven eight nine ten', exclude: false },
    ]);
    expect(searchTerms(' "big  harbour" -town, x\r\n')).toEqual([
      { text: 'big  harbour', exclude: false },
      { text: 'town', exclude: true },
    ]);
  });
});

describe('search on SQLite: in steps, within its budget', () => {
  it('ends with StoreBusyError (503) once its budget has passed, checked before each step', async (context) => {
    const { db } = harness.server.built;
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) context.skip();
    const query = {
      siteId: 1,
      types: ['post'],
      statuses: ['publish'],
      visibleTo: 'all' as const,
      sticky: 'include' as const,
      orderBy: 'ID' as const,
      order: 'ASC' as const,
      limit: 10,
      offset: 0,
    };
    let clock = 0;
    // 10 ms go by between two readings of the clock (the start, the turn, before each step): 25 ms allow the read of the candidates, not the check of the first of them.
    const now = () => (clock += 10) - 10;
    const over = await matchingIds(db, { ...query, search: searchTerms('quokka') }, 25, now).catch(
      (error: unknown) => error,
    );
    expect(over).toBeInstanceOf(StoreBusyError);
    // Answered as a store that cannot take the request now: 503 with Retry-After.
    expect(isStoreUnavailable(over)).toBe(true);
    clock = 0;
    expect(JSON.parse(await matchingIds(db, { ...query, search: searchTerms('quokka') }, 1000, now))).toEqual([
      5001, 5002, 5003, 5004,
    ]);
  });
});
