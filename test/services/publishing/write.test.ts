import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertPosts,
  list,
  postRow,
  read,
  restore,
  startPublishing,
  type PublishingTestServer,
  savePost,
} from './support.js';

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber', 'moderator'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

/** Saves as `login` (anonymously without one) on the demo site by its domain. */
const save = (login: string | undefined, target: 'new' | number, body: unknown, query = '') =>
  savePost(harness, login ? tokens[login] : undefined, target, body, { site: 'demo.example.com', query }).then(
    ({ status, body }) => ({ status, body }),
  );

const stored = (id: number) => harness.store.findPost(1, id);
const AHEAD = '2099-01-01T09:00:00+00:00';

describe('new posts', () => {
  it('publishes by default, with the title\u2019s slug made unique per site (-2, -3)', async () => {
    const first = await save('admin', 'new', { title: 'Tide Tables', content: 'High water at noon.' });
    expect(first).toMatchObject({
      status: 200,
      body: { status: 'publish', slug: 'tide-tables', title: 'Tide Tables', type: 'post', author: { login: 'admin' } },
    });
    expect(first.body.content).toContain('<p>High water at noon.</p>');
    const second = await save('admin', 'new', { title: 'Tide tables' });
    const third = await save('editor', 'new', { title: 'Tide tables', slug: 'Tide Tables' });
    expect([second.body.slug, third.body.slug]).toEqual(['tide-tables-2', 'tide-tables-3']);
    expect(await stored(first.body.ID)).toMatchObject({ status: 'publish', slug: 'tide-tables', authorId: 1 });
  });

  it('keeps the body fields it is given', async () => {
    const { body } = await save(
      'admin',
      'new',
      {
        title: 'About the pier',
        type: 'page',
        parent: 112,
        menu_order: 3,
        page_template: 'wide.php',
        excerpt: 'Short',
        sticky: true,
        password: '',
        likes_enabled: false,
        sharing_enabled: '0',
        discussion: { comments_open: false, ping_status: 'closed' },
      },
      '?context=edit',
    );
    expect(body).toMatchObject({
      type: 'page',
      parent: { ID: 112 },
      menu_order: 3,
      page_template: 'wide.php',
      excerpt: 'Short',
      sticky: true,
      likes_enabled: false,
      sharing_enabled: false,
      discussion: { comments_open: false, comment_status: 'closed', pings_open: false, ping_status: 'closed' },
    });
  });

  it('submits a contributor\u2019s publish or private post for review, keeps their draft without a slug', async () => {
    expect((await save('contributor', 'new', { title: 'Fish prices', status: 'publish' })).body).toMatchObject({
      status: 'pending',
      slug: '',
    });
    expect((await save('contributor', 'new', { title: 'Fish prices', status: 'private' })).body).toMatchObject({
      status: 'pending',
    });
    expect((await save('contributor', 'new', { title: 'Fish prices', status: 'draft' })).body).toMatchObject({
      status: 'draft',
      slug: '',
    });
  });

  it('lets an author publish their own', async () => {
    expect((await save('author', 'new', { title: 'Author\u2019s note' })).body).toMatchObject({
      status: 'publish',
      slug: 'authors-note',
    });
  });

  it('refuses a subscriber (403), and a caller without a token (401)', async () => {
    expect(await save('subscriber', 'new', { title: 'x' })).toEqual({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot publish posts' },
    });
    expect(await save('subscriber', 'new', { title: 'x', status: 'draft' })).toEqual({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit posts' },
    });
    expect((await save(undefined, 'new', { title: 'x' })).status).toBe(401);
  });

  it('answers bad input in the service\u2019s format, never a 500', async () => {
    expect(await save('admin', 'new', {})).toEqual({
      status: 400,
      body: { error: 'invalid_input', message: 'Invalid request input' },
    });
    expect((await save('admin', 'new', { title: 'x', date: 'soon' })).body).toEqual({
      error: 'invalid_input',
      message: 'Invalid body field date: must be an ISO 8601 date and time',
    });
    expect((await save('admin', 'new', { title: 'x', type: 'feedback' })).body).toEqual({
      error: 'unknown_post_type',
      message: 'Unknown post type',
    });
    expect((await save('admin', 'new', ['title'])).status).toBe(400);
    expect((await save('admin', 'new', { title: 'x', parent: { ID: 1 } })).body).toMatchObject({
      error: 'invalid_input',
    });
    // Only titles, contents and excerpts make a post: the fields the platform drops do not.
    expect((await save('admin', 'new', { terms_by_id: { category: [1] }, comments_open: true })).body).toEqual({
      error: 'invalid_input',
      message: 'Invalid request input',
    });
    const text = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/new`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${tokens.admin}` },
      body: 'title=x',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('casts a status the platform does not know, and trash, to publish on a new post (its first allowed status)', async () => {
    expect((await save('admin', 'new', { title: 'x', status: 'bogus' })).body).toMatchObject({ status: 'publish' });
    expect((await save('admin', 'new', { title: 'x', status: 'trash' })).body).toMatchObject({ status: 'publish' });
    expect((await save('contributor', 'new', { title: 'x', status: 'bogus' })).body).toMatchObject({
      status: 'pending',
    });
  });
});

describe('scheduled posts', () => {
  it('schedules a published post dated ahead, and publishes it when its date has passed', async () => {
    const { body } = await save('admin', 'new', { title: 'Festival night', status: 'future', date: AHEAD });
    expect(body).toMatchObject({ status: 'future', date: AHEAD, slug: 'festival-night' });
    expect((await read(harness, undefined, 1, body.ID)).status).toBe(403);
    // The date passes (moved back in the store, as time would move on).
    await harness.server.built.db
      .updateTable('posts')
      .set({ date: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', body.ID)
      .execute();
    expect((await read(harness, undefined, 1, body.ID)).body).toMatchObject({ ID: body.ID, status: 'publish' });
    expect(await stored(body.ID)).toMatchObject({ status: 'publish' });
  });

  it('publishes due posts before a list', async () => {
    const { body } = await save('admin', 'new', { title: 'Late boat', date: AHEAD });
    expect(body.status).toBe('future');
    await harness.server.built.db
      .updateTable('posts')
      .set({ date: '2026-01-02T00:00:00.000Z' })
      .where('id', '=', body.ID)
      .execute();
    const listed = await list(harness, undefined, 1, { search: 'Late boat' });
    expect(listed.body.posts).toMatchObject([{ ID: body.ID, status: 'publish' }]);
  });

  it('publishes a scheduled post before a list once its date has come, with nothing written in between', {
    timeout: 30_000,
  }, async () => {
    // Whole seconds (the API's dates have no fractions), far enough ahead for a slow save to come back first.
    const soon = new Date(Math.ceil((Date.now() + 5000) / 1000) * 1000);
    const { body } = await save('admin', 'new', { title: 'Tide turns', date: soon.toISOString() });
    expect(body.status).toBe('future');
    // A list before its date finds no post due (and may remember when the first one is).
    expect((await list(harness, undefined, 1, { search: 'Tide turns' })).body.posts).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, soon.getTime() + 100 - Date.now())));
    const listed = await list(harness, undefined, 1, { search: 'Tide turns' });
    expect(listed.body.posts).toMatchObject([{ ID: body.ID, status: 'publish' }]);
  });

  it('publishes a scheduled post now when it is published before its date', async () => {
    const { body } = await save('admin', 'new', { title: 'Early bird', date: AHEAD });
    const published = await save('admin', body.ID, { status: 'publish' });
    expect(published.body.status).toBe('publish');
    expect(Date.parse(published.body.date)).toBeLessThan(Date.parse(AHEAD));
  });
});

describe('edits', () => {
  it('set modified and keep a revision each time', async () => {
    const { body } = await save('admin', 'new', { title: 'Net repairs' });
    const first = await save('admin', body.ID, { content: 'Mended.' }, '?context=edit');
    const second = await save('admin', body.ID, { title: 'Net repairs, day two' }, '?context=edit');
    expect(first.body.revisions).toHaveLength(1);
    expect(second.body.revisions).toHaveLength(2);
    expect(second.body.revisions[1]).toBe(first.body.revisions[0]);
    expect(second.body).toMatchObject({ title: 'Net repairs, day two', content: 'Mended.', slug: 'net-repairs' });
    expect(Date.parse(second.body.modified)).toBeGreaterThanOrEqual(Date.parse(body.modified));
  });

  it('follow the capability rules: authors their own, editors everything, contributors not their published posts', async () => {
    const mine = await save('author', 'new', { title: 'Harbour log' });
    expect((await save('author', mine.body.ID, { title: 'Harbour log 2' })).status).toBe(200);
    expect(await save('author', 108, { title: 'Mine now' })).toEqual({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit post' },
    });
    expect(
      (await save('editor', mine.body.ID, { excerpt: 'Edited by the editor' }, '?context=edit')).body,
    ).toMatchObject({ excerpt: 'Edited by the editor' });
    expect((await save('contributor', 109, { title: 'x' })).status).toBe(403);
  });

  it('keep a contributor\u2019s post in review when they ask to publish it', async () => {
    const draft = await save('contributor', 'new', { title: 'Rope knots', status: 'draft' });
    const submitted = await save('contributor', draft.body.ID, { status: 'publish' });
    expect(submitted.body).toMatchObject({ status: 'pending' });
    const approved = await save('editor', draft.body.ID, { status: 'publish' });
    expect(approved.body).toMatchObject({ status: 'publish', slug: 'rope-knots' });
  });

  it('date a draft now when it is published and its date has passed', async () => {
    await insertPosts(harness, [
      postRow({ id: 5001, status: 'draft', slug: '', title: 'Old draft', date: '2020-01-01T00:00:00.000Z' }),
    ]);
    const published = await save('admin', 5001, { status: 'publish' });
    expect(published.body).toMatchObject({ status: 'publish', slug: 'old-draft' });
    expect(published.body.date).not.toBe('2020-01-01T00:00:00+00:00');
  });

  it('trash a post with status trash (remembering its status), and restore gives it back', async () => {
    const { body } = await save('author', 'new', { title: 'Ferry times' });
    const trashed = await save('author', body.ID, { status: 'trash', title: 'Ferry times (old)' });
    expect(trashed.body).toMatchObject({ status: 'trash', slug: 'ferry-times__trashed', title: 'Ferry times (old)' });
    expect(await stored(body.ID)).toMatchObject({ trash: { previousStatus: 'publish', originalSlug: 'ferry-times' } });
    expect((await restore(harness, tokens.author, 1, body.ID)).body).toMatchObject({
      status: 'publish',
      slug: 'ferry-times',
    });
  });

  it('take a trashed post out of the trash when given another status', async () => {
    const draft = await save('admin', 'new', { title: 'Buoy list', status: 'draft' });
    await save('admin', draft.body.ID, { status: 'trash' });
    const back = await save('admin', draft.body.ID, { status: 'private' });
    expect(back.body).toMatchObject({ status: 'private', slug: 'buoy-list' });
    expect(await stored(draft.body.ID)).toMatchObject({ status: 'private', trash: null });
  });

  it('refuse trashing by edit to a caller who may not delete the post, and bad input', async () => {
    const moderatorPost = await save('admin', 'new', { title: 'Moderated' });
    expect(await save('moderator', moderatorPost.body.ID, { status: 'trash' })).toEqual({
      status: 403,
      body: { error: 'unauthorized', message: 'User cannot edit post' },
    });
    expect((await save('contributor', 108, { status: 'trash' })).status).toBe(403);
    expect(await save('admin', 108, {})).toEqual({
      status: 400,
      body: { error: 'invalid_input', message: 'Invalid request input' },
    });
    // The platform drops what its edit does not document (and an unknown status), then finds nothing to save.
    for (const dropped of [
      { type: 'page' },
      { status: 'bogus' },
      { terms_by_id: { category: [3] } },
      { comments_open: false, unknown: 1 },
    ]) {
      expect(await save('admin', 108, dropped)).toEqual({
        status: 400,
        body: { error: 'invalid_input', message: 'Invalid request input' },
      });
    }
    expect((await save('admin', 99999, { title: 'x' })).body).toEqual({
      error: 'unknown_post',
      message: 'Unknown post',
    });
    expect((await save('admin', 110, { title: 'x' })).body).toEqual({ error: 'unknown_post', message: 'Unknown post' });
  });
});
