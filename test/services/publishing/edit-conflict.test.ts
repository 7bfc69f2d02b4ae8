import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iosPatch } from '../../fixtures/client-bodies.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Two devices edit one post through v1.2, as iOS's WordPressKit `patchPost`
 * sends an edit (`PostServiceRemoteREST+Extended.swift`: the changed fields
 * with `if_not_modified_since`, the post's `modified` as the app last read
 * it). The second device, still holding the first read, gets the error
 * `patchPost` turns into `PostServiceRemoteUpdatePostError.conflict`
 * (`old-revision`, 409), and nothing of either save is lost.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'author']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const v12 = (method: 'GET' | 'POST', path: string, login: string, body?: unknown) =>
  callJson(harness, method, `/rest/v1.2${path}`, tokens[login], body);

/** A post of the author's, its `modified` set in the past so that any save now is later to the second. */
async function postReadEarlier(): Promise<{ id: number; modified: string }> {
  const created = await v12('POST', '/sites/1/posts/new?context=edit', 'author', {
    title: 'Tide table',
    content: 'High water at six.',
    status: 'draft',
  });
  const id = created.body.ID as number;
  await harness.server.built.db
    .updateTable('posts')
    .set({ modified: '2026-01-01T08:00:00.000Z' })
    .where('id', '=', id)
    .execute();
  const read = await v12('GET', `/sites/1/posts/${id}?context=edit`, 'author');
  return { id, modified: read.body.modified as string };
}

describe('v1.2 edit with if_not_modified_since (WordPressKit patchPost)', () => {
  it('two devices: the first saves, the second with the first read gets 409 old-revision; nothing is lost', async () => {
    const { id, modified } = await postReadEarlier();
    expect(modified).toBe('2026-01-01T08:00:00+00:00');

    const phone = await v12(
      'POST',
      `/sites/1/posts/${id}?context=edit`,
      'author',
      iosPatch(modified, { content: 'High water at seven.' }),
    );
    expect(phone.status).toBe(200);
    expect(phone.body.content).toContain('High water at seven.');

    const tablet = await v12(
      'POST',
      `/sites/1/posts/${id}?context=edit`,
      'author',
      iosPatch(modified, { title: 'Tide table (tablet)', content: 'High water at eight.' }),
    );
    expect(tablet).toMatchObject({
      status: 409,
      body: { error: 'old-revision', message: 'There is a revision of this post that is more recent.' },
    });
    // The first device's save stands, nothing of the refused one was written, and the first save is in the revisions.
    const after = await v12('GET', `/sites/1/posts/${id}?context=edit`, 'author');
    expect(after.body).toMatchObject({ title: 'Tide table', modified: phone.body.modified });
    expect(after.body.content).toContain('High water at seven.');
    const revisions = await harness.store.postRevisions(id);
    expect(revisions.some((revision) => revision.content === 'High water at seven.')).toBe(true);
    expect(revisions.some((revision) => revision.content === 'High water at eight.')).toBe(false);

    // The app reloads the post and saves again with what it read: accepted.
    const retried = await v12(
      'POST',
      `/sites/1/posts/${id}?context=edit`,
      'author',
      iosPatch(after.body.modified, { title: 'Tide table (tablet)', content: 'High water at eight.' }),
    );
    expect(retried).toMatchObject({ status: 200, body: { title: 'Tide table (tablet)' } });
  });

  it('devices saving together with the same if_not_modified_since: exactly one wins, the others get old-revision (holdPost)', async () => {
    const { id, modified } = await postReadEarlier();
    const devices = Array.from({ length: 6 }, (_, n) => `Device ${n} says high water at ${n + 1}.`);
    const answers = await Promise.all(
      devices.map((content) =>
        v12('POST', `/sites/1/posts/${id}?context=edit`, 'author', iosPatch(modified, { content })),
      ),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409 && answer.body.error === 'old-revision')).toHaveLength(5);
    const after = await v12('GET', `/sites/1/posts/${id}?context=edit`, 'author');
    expect(after.body.content).toBe(won[0]?.body.content);
  });

  it('accepts an edit with the post’s own modified time, ignores the field on v1.1 and on a new post, refuses text that is no time', async () => {
    const { id, modified } = await postReadEarlier();
    expect(
      (await v12('POST', `/sites/1/posts/${id}`, 'author', iosPatch(modified, { title: 'Same second' }))).status,
    ).toBe(200);
    const stale = iosPatch(modified, { title: 'Through v1.1' });
    const v11 = await callJson(harness, 'POST', `/rest/v1.1/sites/1/posts/${id}`, tokens.author, stale);
    expect(v11).toMatchObject({ status: 200, body: { title: 'Through v1.1' } });
    const created = await v12('POST', '/sites/1/posts/new', 'author', {
      title: 'New',
      if_not_modified_since: '2000-01-01T00:00:00+0000',
    });
    expect(created.status).toBe(200);
    expect(
      await v12('POST', `/sites/1/posts/${id}`, 'author', { title: 'x', if_not_modified_since: 'yesterday' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_input' },
    });
  });
});
