import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const commentStatuses = async (postId: number) =>
  (
    await harness.server.built.db
      .selectFrom('comments')
      .select(['id', 'status', 'status_before_trash'])
      .where('post_id', '=', postId)
      .orderBy('id')
      .execute()
  ).map((row) => [row.id, row.status, row.status_before_trash]);

describe('a trashed post gets back the status it had before the trash, and its original slug', () => {
  it.each([
    [101, 'publish', 'the-harbours-first-light'],
    [102, 'draft', 'notes-from-the-market'],
    [103, 'pending', 'spring-opening-hours'],
    [104, 'private', 'board-meeting-minutes'],
    [105, 'future', 'summer-festival-programme'],
  ])('post %i goes back to %s as %s', async (postId, previousStatus, originalSlug) => {
    const before = await harness.store.findPost(1, postId);
    expect(before).toMatchObject({
      status: 'trash',
      slug: `${originalSlug}__trashed`,
      trash: { previousStatus, originalSlug },
    });

    const { status, body } = await restore(harness, admin, 1, postId);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ID: postId, status: previousStatus, slug: originalSlug });

    const after = await harness.store.findPost(1, postId);
    expect(after).toMatchObject({ status: previousStatus, slug: originalSlug, trash: null });
    expect(after!.modified > before!.modified).toBe(true);
    expect(body.modified).not.toBe(body.date);
  });

  it('restores a page (106) the same way', async () => {
    const { status, body } = await restore(harness, admin, 1, 106);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ID: 106, type: 'page', status: 'publish', slug: 'our-team' });
    expect(await harness.store.findPost(1, 106)).toMatchObject({ status: 'publish', slug: 'our-team', trash: null });
  });

  it('restores a post of a type the site exposes besides post and page', async () => {
    const { status, body } = await restore(harness, admin, 1, 111);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ID: 111,
      type: 'jetpack-portfolio',
      status: 'draft',
      slug: 'harbour-portrait-series',
    });
  });

  it('gives the comments set aside with the post their own statuses back', async () => {
    await restore(harness, admin, 1, 107);
    expect(await commentStatuses(107)).toEqual([
      [604, 'approved', null],
      [605, 'approved', null],
      [606, 'unapproved', null],
    ]);
  });
});

describe('a slug taken while the post was in the trash', () => {
  it('becomes the first free -N variant, as the platform makes slugs unique', async () => {
    const { body } = await restore(harness, admin, 1, 113);
    expect(body).toMatchObject({ status: 'publish', slug: 'welcome-to-the-demo-site-2' });
    expect((await harness.store.findPost(1, 108))?.slug).toBe('welcome-to-the-demo-site');
  });
});

describe('a trashed post with no trash memory', () => {
  it('becomes a draft, and its slug loses the __trashed suffix', async () => {
    await harness.store.trashPost(109, new Date());
    await harness.server.built.db.deleteFrom('trash_meta').where('post_id', '=', 109).execute();
    const { body } = await restore(harness, admin, 1, 109);
    expect(body).toMatchObject({ status: 'draft', slug: 'fish-market-prices' });
  });
});

describe('a post that is not in the trash', () => {
  it('is answered 200, unchanged, and the store is untouched', async () => {
    const before = await harness.store.findPost(1, 108);
    const comments = await commentStatuses(108);
    const first = await restore(harness, admin, 1, 108);
    const second = await restore(harness, admin, 1, 108);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ID: 108,
      status: 'publish',
      slug: 'welcome-to-the-demo-site',
      modified: '2026-01-15T09:30:00+00:00',
    });
    expect(second.body).toEqual(first.body);
    expect(await harness.store.findPost(1, 108)).toEqual(before);
    expect(await commentStatuses(108)).toEqual(comments);
  });

  it('is answered unchanged when restored a second time', async () => {
    const first = await restore(harness, admin, 1, 102);
    const again = await restore(harness, admin, 1, 102);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
