import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPosts, list, postRow, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
let contributor: string;
let author: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
  contributor = await harness.tokenFor('contributor');
  author = await harness.tokenFor('author');
});
afterAll(() => harness?.close());

const ids = (body: Record<string, any>) => (body.posts as { ID: number }[]).map((post) => post.ID);

/** Every page of a list by its handles, the posts' IDs in order, with `between` run after each page. */
async function walk(
  token: string | undefined,
  site: number,
  query: Record<string, unknown>,
  between: (page: number) => Promise<void> = async () => {},
) {
  const seen: number[] = [];
  let handle: string | undefined;
  for (let page = 1; page < 50; page++) {
    const { status, body } = await list(harness, token, site, { ...query, ...(handle ? { page_handle: handle } : {}) });
    expect(status).toBe(200);
    seen.push(...ids(body));
    handle = body.meta?.next_page;
    if (!handle) return seen;
    await between(page);
  }
  throw new Error('the handles never ended');
}

describe('who sees what (the single read\u2019s rules)', () => {
  it('answers a caller without a token the published posts, with links to the counts', async () => {
    const { status, body, response } = await list(harness, undefined, 'demo.example.com');
    expect(status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(body).toMatchObject({ found: 1, posts: [{ ID: 108, status: 'publish', sticky: true }] });
    expect(body.meta).toEqual({
      links: { counts: `${harness.server.config.publicUrl}/rest/v1.1/sites/1/post-counts/post` },
    });
    // The same post object as the single read.
    const read = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/108`);
    expect(body.posts[0]).toEqual(await read.json());
  });

  it('answers a caller without a token nothing for statuses it may not see, and only published posts for `any`', async () => {
    expect((await list(harness, undefined, 1, { status: 'trash' })).body).toEqual({ found: 0, posts: [] });
    expect((await list(harness, undefined, 1, { status: 'draft,trash' })).body).toEqual({ found: 0, posts: [] });
    expect(ids((await list(harness, undefined, 1, { status: 'any,trash', type: 'any' })).body)).toEqual([108, 112]);
  });

  it('lists the trash to an administrator: every trashed post of the type, newest first', async () => {
    const { body } = await list(harness, admin, 1, { status: 'trash' });
    expect(ids(body)).toEqual([107, 101, 102, 103, 104, 105, 109, 113].sort((a, b) => order(a) - order(b)));
    expect(body.found).toBe(8);
    expect(body.posts.every((post: { status: string }) => post.status === 'trash')).toBe(true);
  });

  it('lists to a contributor only the trashed posts they may edit (their own draft, not their published post), counting only those', async () => {
    const { body } = await list(harness, contributor, 1, { status: 'trash' });
    expect(ids(body)).toEqual([102]);
    expect(body.found).toBe(1);
  });

  it('lists with type=any every type the site exposes (page and portfolio, not feedback)', async () => {
    const { body } = await list(harness, admin, 1, { status: 'trash', type: 'any', fields: 'ID,type' });
    expect(body.posts).toContainEqual({ ID: 106, type: 'page' });
    expect(body.posts).toContainEqual({ ID: 111, type: 'jetpack-portfolio' });
    expect(ids(body)).not.toContain(110);
    expect(body.meta).toBeUndefined();
  });

  it('refuses context=edit posts the caller may not edit by leaving them out', async () => {
    const { body } = await list(harness, author, 1, { status: 'any', context: 'edit' });
    expect(ids(body)).toEqual([]);
    expect(body.found).toBe(0);
  });
});

/** The demo's trashed posts by date, newest first (the list's default order). */
const DATES: Record<number, string> = {};
const order = (id: number) => -Date.parse(DATES[id]!);

beforeAll(async () => {
  const rows = await harness.server.built.db
    .selectFrom('posts')
    .select(['id', 'date'])
    .where('site_id', '=', 1)
    .execute();
  for (const row of rows) DATES[row.id] = row.date;
});

describe('the query parameters', () => {
  beforeAll(async () => {
    await insertPosts(harness, [
      postRow({
        id: 2001,
        title: 'Alpha tide',
        date: '2026-05-01T10:00:00.000Z',
        modified: '2026-05-09T10:00:00.000Z',
        author_id: 2,
      }),
      postRow({
        id: 2002,
        title: 'beta harbour',
        date: '2026-05-02T10:00:00.000Z',
        modified: '2026-05-08T10:00:00.000Z',
        sticky: 1,
      }),
      postRow({
        id: 2003,
        title: 'Gamma nets',
        date: '2026-05-03T10:00:00.000Z',
        modified: '2026-05-07T10:00:00.000Z',
        content: 'About the HARBOUR lights',
      }),
      postRow({
        id: 2004,
        title: 'Delta',
        date: '2026-05-04T10:00:00.000Z',
        modified: '2026-05-06T10:00:00.000Z',
        password: 'secret',
      }),
    ]);
  });

  it('orders by date (default, newest first), and ASC', async () => {
    expect(ids((await list(harness, admin, 1, { number: 5 })).body)).toEqual([2004, 2003, 2002, 2001, 108]);
    expect(ids((await list(harness, admin, 1, { order: 'ASC', after: '2026-04-30T00:00:00Z' })).body)).toEqual([
      2001, 2002, 2003, 2004,
    ]);
  });

  it('orders by modified, title, ID and comment_count', async () => {
    const recent = { after: '2026-04-30T00:00:00+00:00' };
    expect(ids((await list(harness, admin, 1, { ...recent, order_by: 'modified' })).body)).toEqual([
      2001, 2002, 2003, 2004,
    ]);
    expect(ids((await list(harness, admin, 1, { ...recent, order_by: 'ID', order: 'ASC' })).body)).toEqual([
      2001, 2002, 2003, 2004,
    ]);
    const byTitle = ids((await list(harness, admin, 1, { ...recent, order_by: 'title', order: 'ASC' })).body);
    expect(byTitle).toHaveLength(4);
    expect((await list(harness, admin, 1, { order_by: 'comment_count' })).status).toBe(200);
    expect(ids((await list(harness, admin, 1, { order_by: 'comment_count', number: 1 })).body)).toEqual([108]);
  });

  it('filters by search (title, excerpt, content; any case), author, sticky and date ranges', async () => {
    expect(ids((await list(harness, admin, 1, { search: 'harbour', after: '2026-04-30T00:00:00Z' })).body)).toEqual([
      2003, 2002,
    ]);
    expect(ids((await list(harness, admin, 1, { search: '100%' })).body)).toEqual([]);
    expect(ids((await list(harness, admin, 1, { author: 2 })).body)).toEqual([2001]);
    expect(ids((await list(harness, admin, 1, { sticky: 'require' })).body)).toEqual([2002, 108]);
    expect(ids((await list(harness, admin, 1, { sticky: 'exclude', number: 2 })).body)).toEqual([2004, 2003]);
    // `after` alone is exclusive; beside `before` it is inclusive (`>= after and < before`), as on the platform.
    expect(
      ids((await list(harness, admin, 1, { after: '2026-05-02T10:00:00Z', before: '2026-05-04T10:00:00Z' })).body),
    ).toEqual([2003, 2002]);
    expect(ids((await list(harness, admin, 1, { after: '2026-05-03T10:00:00Z' })).body)).toEqual([2004]);
    expect(
      ids(
        (
          await list(harness, admin, 1, {
            modified_after: '2026-05-07T12:00:00+02:00',
            modified_before: '2026-05-09T00:00:00Z',
          })
        ).body,
      ),
    ).toEqual([2003, 2002]);
    expect(
      ids((await list(harness, admin, 1, { modified_after: '2026-05-07T12:00:00+02:00', order_by: 'modified' })).body),
    ).toEqual([2001, 2002]);
  });

  it('hides a password-protected post from a caller who may not edit it', async () => {
    expect(ids((await list(harness, undefined, 1, { number: 2 })).body)).toEqual([2003, 2002]);
    expect(ids((await list(harness, author, 1, { number: 3 })).body)).toEqual([2003, 2002, 2001]);
  });

  it('counts in found what the caller may see (the kept counts, less published posts with a password, when nothing else narrows the list)', async () => {
    const found = async (token: string | undefined, query: Record<string, string | number> = {}) =>
      (await list(harness, token, 1, { number: 1, ...query })).body.found;
    expect(await found(undefined)).toBe(4);
    expect(await found(undefined, { type: 'any' })).toBe(5);
    expect(await found(undefined, { status: 'any' })).toBe(4);
    expect(await found(undefined, { sticky: 'exclude' })).toBe(2);
    expect(await found(admin)).toBe(5);
    expect(await found(admin, { type: 'any' })).toBe(6);
    expect(await found(admin, { status: 'trash' })).toBe(8);
    expect(await found(admin, { status: 'publish,trash', type: 'any' })).toBe(16);
    expect(await found(author)).toBe(4);
  });

  it('pages by number, offset and page; a handle only on a first page', async () => {
    const first = await list(harness, admin, 1, { number: 2 });
    expect(first.body).toMatchObject({ found: 5 });
    expect(first.body.meta.next_page).toBe(`value=${encodeURIComponent('2026-05-03T10:00:00+00:00')}&id=2003`);
    const byOffset = await list(harness, admin, 1, { number: 2, offset: 2 });
    expect(ids(byOffset.body)).toEqual([2002, 2001]);
    expect(byOffset.body.meta.next_page).toBeUndefined();
    expect(ids((await list(harness, admin, 1, { number: 2, page: 3, offset: 1 })).body)).toEqual([108]);
    expect(ids((await list(harness, admin, 1, { number: 0 })).body)).toHaveLength(5);
  });

  it('keeps the named fields of each post', async () => {
    const { body } = await list(harness, admin, 1, { number: 1, fields: 'ID,title' });
    expect(body.posts).toEqual([{ ID: 2004, title: 'Delta' }]);
  });

  it('answers bad input in the service\u2019s error format', async () => {
    expect((await list(harness, admin, 1, { number: 101 })).body).toEqual({
      error: 'invalid_number',
      message: 'The NUMBER parameter must be less than or equal to 100.',
    });
    expect((await list(harness, admin, 1, { after: 'yesterday' })).body).toEqual({
      error: 'invalid_input',
      message: 'Invalid parameter after: must be an ISO 8601 date and time',
    });
    expect((await list(harness, admin, 1, { type: 'feedback' })).body).toEqual({
      error: 'unknown_post_type',
      message: 'Unknown post type',
    });
    expect((await list(harness, admin, 'nowhere.example.com')).body).toEqual({
      error: 'unknown_blog',
      message: 'Unknown blog',
    });
    // A handle that names no position is ignored, as the platform ignores it.
    expect(ids((await list(harness, admin, 1, { number: 1, page_handle: 'garbage' })).body)).toEqual([2004]);
    // An order the platform does not know is its default (`cast_and_filter`), not a 400.
    const raw = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/?order_by=rank&fields=ID`);
    const plain = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/?fields=ID`);
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual(await plain.json());
  });
});

describe('page handles while posts are written between pages', () => {
  it.each(['date', 'modified', 'title', 'ID'] as const)('by %s: no post twice, none skipped', async (orderBy) => {
    const site = 2;
    const base = 3000 + ['date', 'modified', 'title', 'ID'].indexOf(orderBy) * 100;
    // Several posts share a date and title, so the ID decides between them.
    const rows = Array.from({ length: 25 }, (_, i) =>
      postRow({
        id: base + i,
        site_id: site,
        slug: `walk-${base + i}`,
        title: `Walk ${orderBy} ${String(Math.floor(i / 3)).padStart(2, '0')}`,
        date: `2027-01-${String(1 + Math.floor(i / 3)).padStart(2, '0')}T00:00:00.000Z`,
        modified: `2027-02-${String(1 + Math.floor(i / 3)).padStart(2, '0')}T00:00:00.000Z`,
      }),
    );
    await insertPosts(harness, rows);
    const query = { number: 4, order_by: orderBy, search: `Walk ${orderBy}` };
    const before = await walk(admin, site, query);
    expect(new Set(before).size).toBe(25);

    let extra = base + 50;
    const seen = await walk(admin, site, query, async () => {
      // A post that sorts first, one that sorts last, and one beside the current position: none moves the rest.
      await insertPosts(harness, [
        postRow({
          id: extra++,
          site_id: site,
          slug: `walk-${extra}`,
          title: `Walk ${orderBy} 99`,
          date: '2027-03-01T00:00:00.000Z',
          modified: '2027-03-01T00:00:00.000Z',
        }),
        postRow({
          id: extra++,
          site_id: site,
          slug: `walk-${extra}`,
          title: `Walk ${orderBy} 00`,
          date: '2026-12-01T00:00:00.000Z',
          modified: '2026-12-01T00:00:00.000Z',
        }),
      ]);
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
  });
});
