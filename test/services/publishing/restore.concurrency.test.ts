import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

const CALLS = 50;

let harness: PublishingTestServer;
beforeAll(async () => {
  harness = await startPublishing();
});
afterAll(() => harness?.close());

/** The server's `post_restores_total` by outcome: `restored` counts the transitions its store made. */
const restoresCounted = async () => {
  const { values } = await harness.server.built.metrics.registry.getSingleMetric('post_restores_total')!.get();
  const of = (outcome: string) => values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  return { restored: of('restored'), unchanged: of('unchanged') };
};

const commentStatuses = async (postId: number) =>
  harness.server.built.db
    .selectFrom('comments')
    .select(['id', 'status', 'status_before_trash'])
    .where('post_id', '=', postId)
    .orderBy('id')
    .execute();

describe('fifty concurrent restores of the same post', () => {
  it('make exactly one transition in the store', async () => {
    const results = await Promise.all(Array.from({ length: CALLS }, () => harness.store.restorePost(107, new Date())));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await harness.store.findPost(1, 107)).toMatchObject({
      status: 'publish',
      slug: 'morning-at-the-harbour',
      trash: null,
    });
    expect((await commentStatuses(107)).map((row) => row.status)).toEqual(['approved', 'approved', 'unapproved']);
  });

  it('over HTTP make exactly one transition, all answer 200 with the one restored post, and leave a consistent store', async () => {
    const token = await harness.tokenFor('admin');
    const before = await restoresCounted();
    const answers = await Promise.all(Array.from({ length: CALLS }, () => restore(harness, token, 1, 101)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(CALLS).fill(200));
    const after = await restoresCounted();
    // All fifty were counted as authorised restores; the server's store made one transition.
    expect(after.restored - before.restored + after.unchanged - before.unchanged).toBe(CALLS);
    expect(after.restored - before.restored).toBe(1);
    const seen = new Set(
      answers.map(({ body }) => JSON.stringify([body.status, body.slug, body.modified, body.discussion])),
    );
    expect(seen.size).toBe(1);
    expect(answers[0]!.body).toMatchObject({
      status: 'publish',
      slug: 'the-harbours-first-light',
      discussion: { comment_count: 2 },
    });

    const post = await harness.store.findPost(1, 101);
    expect(post).toMatchObject({ status: 'publish', slug: 'the-harbours-first-light', trash: null });
    expect(post!.modified.slice(0, 19)).toBe(answers[0]!.body.modified.slice(0, 19));
    expect(
      await harness.server.built.db.selectFrom('trash_meta').select('post_id').where('post_id', '=', 101).execute(),
    ).toEqual([]);
    expect(await commentStatuses(101)).toEqual([
      { id: 601, status: 'approved', status_before_trash: null },
      { id: 602, status: 'approved', status_before_trash: null },
      { id: 603, status: 'spam', status_before_trash: null },
    ]);
  });
});
