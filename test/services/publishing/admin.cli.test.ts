import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInProcess } from '../../support/admin.js';
import { lastLine } from '../../support/processes.js';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The publishing commands of the admin command line, run in this process on
 * the test server's store (test/admin/cli.process.test.ts runs it as a
 * process: its environment, exit status and output streams).
 */
let harness: PublishingTestServer;

beforeAll(async () => {
  // A short token cache: a revocation shows on the server when its cache forgets the token (below).
  harness = await startPublishing({ ACCESS_TOKEN_CACHE_MS: '200' });
});
afterAll(() => harness?.close());

/** Runs an admin command in this process on the test server's store; resolves to stdout, rejects with stderr. */
async function admin(...args: string[]) {
  const { code, stdout, stderr } = await adminInProcess(harness.server.built.db, ...args);
  if (code !== 0) throw new Error(stderr);
  return stdout;
}

describe('tokens create --user LOGIN', () => {
  it('prints a new token alone on the last line, and the token works', async () => {
    const token = lastLine(await admin('tokens', 'create', '--user', 'admin'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { status, body } = await restore(harness, token, 1, 108);
    expect(status).toBe(200);
    expect(body.capabilities).toEqual({ publish_post: true, delete_post: true, edit_post: true });
  });

  it('stores only the token’s hash', async () => {
    const token = lastLine(await admin('tokens', 'create', '--user', 'editor'));
    const rows = await harness.server.built.db.selectFrom('access_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('fails for an unknown login', async () => {
    await expect(admin('tokens', 'create', '--user', 'nobody')).rejects.toThrow('no user with login "nobody"');
  });
});

describe('tokens revoke', () => {
  it.each([
    ['--id', (created: string) => /token ([0-9a-f-]{36}) created/.exec(created)?.[1] ?? ''],
    ['--token', (created: string) => lastLine(created)],
    ['--user', () => 'subscriber'],
  ])('by %s: the token is then answered 401 invalid_token', async (option, select) => {
    const created = await admin('tokens', 'create', '--user', 'subscriber');
    const token = lastLine(created);
    expect((await restore(harness, token, 1, 101)).status).toBe(403);

    expect(await admin('tokens', 'revoke', option, select(created))).toMatch(/^1 token revoked$/m);
    // The command line writes to the store, not to the server: the server learns of the revocation when its
    // token cache (ACCESS_TOKEN_CACHE_MS) forgets the token, not before.
    const revokedAt = Date.now();
    let answer = await restore(harness, token, 1, 101);
    while (answer.status !== 401 && Date.now() - revokedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await restore(harness, token, 1, 101);
    }
    const { status, body, response } = answer;
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(harness.server.config.publishing.accessTokenCacheMs + 1000);
    expect(body.error).toBe('invalid_token');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('fails when nothing matches', async () => {
    await expect(admin('tokens', 'revoke', '--id', '00000000-0000-0000-0000-000000000000')).rejects.toThrow(
      'no active token matched',
    );
  });

  it('lists tokens by ID and state, never the tokens themselves', async () => {
    const token = lastLine(await admin('tokens', 'create', '--user', 'author'));
    const stdout = await admin('tokens', 'list', '--user', 'author');
    expect(stdout).toMatch(/^[0-9a-f-]{36}\tauthor\t\S+\tactive$/m);
    expect(stdout).not.toContain(token);
  });
});

describe('posts trash --site SITE --post ID, then restore', () => {
  it('moves the post to the trash as the platform does, and restore brings it back as it was', async () => {
    const token = lastLine(await admin('tokens', 'create', '--user', 'admin'));
    const before = (await restore(harness, token, 1, 108)).body;

    expect(await admin('posts', 'trash', '--site', 'demo.example.com', '--post', '108')).toContain(
      'post 108 moved to the trash (was publish)',
    );
    const stored = await harness.store.findPost(1, 108);
    expect(stored).toMatchObject({
      status: 'trash',
      slug: 'welcome-to-the-demo-site__trashed',
      trash: { previousStatus: 'publish', originalSlug: 'welcome-to-the-demo-site' },
    });
    expect(Date.parse(stored!.trash!.trashedAt)).toBeGreaterThan(Date.now() - 60_000);
    const comments = await harness.server.built.db
      .selectFrom('comments')
      .select(['status', 'status_before_trash'])
      .where('post_id', '=', 108)
      .execute();
    expect(comments).toEqual([{ status: 'post-trashed', status_before_trash: 'approved' }]);

    const after = (await restore(harness, token, 1, 108)).body;
    expect({ ...after, modified: undefined }).toEqual({ ...before, modified: undefined });
    expect(await harness.store.findPost(1, 108)).toMatchObject({
      status: 'publish',
      slug: 'welcome-to-the-demo-site',
      trash: null,
    });
  });

  it('leaves a post already in the trash as it is', async () => {
    const before = await harness.store.findPost(1, 105);
    expect(await admin('posts', 'trash', '--site', '1', '--post', '105')).toContain('post 105 is already in the trash');
    expect(await harness.store.findPost(1, 105)).toEqual(before);
  });

  it('names the site by domain::path too, and fails for an unknown site or post', async () => {
    await expect(admin('posts', 'trash', '--site', 'demo.example.com::blog', '--post', '101')).rejects.toThrow(
      'no post 101 on site 2',
    );
    await expect(admin('posts', 'trash', '--site', 'nowhere.example', '--post', '101')).rejects.toThrow(
      'no site "nowhere.example"',
    );
    await expect(admin('posts', 'trash', '--site', '1', '--post', 'abc')).rejects.toThrow('not a post ID: abc');
  });
});
