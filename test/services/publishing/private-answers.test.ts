import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read, restore, startPublishing, trash, type PublishingTestServer } from './support.js';

/**
 * Answers to a request with a token are that caller's alone (a trashed
 * post, `context=edit` with the author's email, `i_like`): they carry
 * `Cache-Control: private, no-store`, so no shared cache keeps them.
 */
let harness: PublishingTestServer;
let admin: string;

beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

describe('Cache-Control of publishing answers', () => {
  it('is private, no-store for a token reading a trashed post', async () => {
    const trashed = await read(harness, admin, 1, 102);
    expect(trashed.body).toMatchObject({ status: 'trash' });
    expect(trashed.response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('is private, no-store for context=edit with the author’s email', async () => {
    const edit = await read(harness, admin, 1, 108, { context: 'edit' });
    expect(edit.body.author.email).toBe('ada@demo.example.com');
    expect(edit.response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('is private, no-store on refusals and writes with a token too', async () => {
    const refused = await read(harness, 'not-a-real-token-but-a-token', 1, 108);
    expect(refused.status).toBe(401);
    expect(refused.response.headers.get('cache-control')).toBe('private, no-store');
    const trashedNow = await trash(harness, admin, 1, 108);
    expect(trashedNow.status).toBe(200);
    expect(trashedNow.response.headers.get('cache-control')).toBe('private, no-store');
    const restored = await restore(harness, admin, 1, 108);
    expect(restored.response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('is absent on a published post read without a token (the control)', async () => {
    const anonymous = await read(harness, undefined, 1, 108);
    expect(anonymous.status).toBe(200);
    expect(anonymous.response.headers.get('cache-control')).toBeNull();
  });
});
