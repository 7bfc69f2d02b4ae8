import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'contributor']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

/** A bulk call as `login` (contract-checked). */
async function bulk(login: string | undefined, verb: 'delete' | 'restore', body: unknown, site = 'demo.example.com') {
  const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/${site}/posts/${verb}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(login ? { Authorization: `Bearer ${tokens[login]}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const unknownPost = { errors: { unknown_post: ['Unknown post'] }, error_data: { unknown_post: 404 } };

describe('bulk restore and delete: each post judged on its own', () => {
  it('restores what the caller may restore, and answers each refusal under its ID', async () => {
    const { status, body } = await bulk('contributor', 'restore', { post_ids: [102, 109, 999, 'abc'] });
    expect(status).toBe(200);
    expect(body.results['102']).toMatchObject({ ID: 102, status: 'draft' });
    expect(body.results['109']).toEqual({
      errors: { unauthorized: ['User cannot restore trashed posts'] },
      error_data: { unauthorized: 403 },
    });
    expect(body.results['999']).toEqual(unknownPost);
    expect(body.results.abc).toEqual(unknownPost);
    expect(await harness.store.findPost(1, 102)).toMatchObject({ status: 'draft' });
    expect(await harness.store.findPost(1, 109)).toMatchObject({ status: 'trash' });
  });

  it('takes a comma-separated list, trashes posts out of the trash and deletes trashed ones for good', async () => {
    const { body } = await bulk('admin', 'delete', { post_ids: '108, 113' });
    expect(body.results['108']).toMatchObject({ ID: 108, status: 'trash' });
    expect(body.results['113']).toMatchObject({ ID: 113, status: 'deleted' });
    expect(await harness.store.findPost(1, 113)).toBeUndefined();
    const back = await bulk('admin', 'restore', { post_ids: ['108'] });
    expect(back.body.results['108']).toMatchObject({ ID: 108, status: 'publish' });
  });

  it('fails the call itself only without IDs, on the site, or without a token', async () => {
    expect(await bulk('admin', 'delete', { post_ids: [] })).toEqual({
      status: 400,
      body: { error: 'empty_post_ids', message: 'The request must include post_ids' },
    });
    expect((await bulk('admin', 'restore', { post_ids: ' , ' })).body).toMatchObject({ error: 'empty_post_ids' });
    expect((await bulk('admin', 'delete', {})).status).toBe(400);
    expect((await bulk('admin', 'delete', { post_ids: [101] }, 'nowhere.example.com')).body).toEqual({
      error: 'unknown_blog',
      message: 'Unknown blog',
    });
    expect((await bulk(undefined, 'restore', { post_ids: [101] })).status).toBe(401);
  });
});
