import { describe, expect, it, vi } from 'vitest';
import type { PublishingStore } from '../../../../src/services/publishing/domain/publishingStore.js';
import type { PostRecord, SiteRecord } from '../../../../src/services/publishing/domain/records.js';
import { restoreTrashedPost } from '../../../../src/services/publishing/flows/restore.js';

/**
 * The restore flow with a stub store, no server: the real order of checks
 * (site, post, the right to delete, `context=edit`'s right to edit), each
 * refusal before any change. The store answers only what the flow asks
 * before its first write; anything else it asks fails the test.
 */
const site: SiteRecord = {
  id: 1,
  domain: 'demo.example.com',
  path: '',
  name: 'Demo',
  description: '',
  lang: 'en',
  isPrivate: false,
  extraPostTypes: [],
};
const trashed = (fields: Partial<PostRecord> = {}) =>
  ({
    id: 10,
    siteId: 1,
    authorId: 7,
    type: 'post',
    status: 'trash',
    trash: { previousStatus: 'draft' },
    ...fields,
  }) as PostRecord;

function stubStore(found: PostRecord | undefined, capabilities: string[], asSite: SiteRecord | null = site) {
  const restorePost = vi.fn();
  const known = {
    findSite: async () => asSite ?? undefined,
    capabilitiesOf: async () => new Set(capabilities),
    findPost: async () => found,
    restorePost,
  };
  const store = new Proxy(known, {
    get(target, name: string) {
      if (name in target) return target[name as keyof typeof target];
      throw new Error(`the flow asked the store for ${name} before refusing`);
    },
  }) as unknown as PublishingStore;
  return { store, restorePost };
}

const restore = (store: PublishingStore, fields: { context?: 'display' | 'edit'; viewerId?: number } = {}) =>
  restoreTrashedPost(
    { store, publicUrl: 'https://api.example.com', shortlinkBase: 'https://wp.me' },
    { site: '1', postId: 10, viewerId: fields.viewerId ?? 7, context: fields.context ?? 'display', meta: undefined },
  );

const CONTRIBUTOR = ['read', 'edit_posts', 'delete_posts'];

describe('restoreTrashedPost: every refusal before any change', () => {
  it('an unknown site: 404 unknown_blog', async () => {
    const { store, restorePost } = stubStore(trashed(), CONTRIBUTOR, null);
    await expect(restore(store)).rejects.toMatchObject({ status: 404, code: 'unknown_blog' });
    expect(restorePost).not.toHaveBeenCalled();
  });

  it('a private site to someone without a role there: 403, before the post is looked up', async () => {
    const { store, restorePost } = stubStore(undefined, [], { ...site, isPrivate: true });
    await expect(restore(store)).rejects.toMatchObject({ status: 403 });
    expect(restorePost).not.toHaveBeenCalled();
  });

  it('an unknown post, and a post of a type the site does not expose: 404 unknown_post', async () => {
    for (const found of [undefined, trashed({ type: 'jetpack-portfolio' })]) {
      const { store, restorePost } = stubStore(found, CONTRIBUTOR);
      await expect(restore(store)).rejects.toMatchObject({ status: 404, code: 'unknown_post' });
      expect(restorePost).not.toHaveBeenCalled();
    }
  });

  it('someone else\u2019s post to a contributor: 403 "User cannot restore trashed posts"', async () => {
    const { store, restorePost } = stubStore(trashed({ authorId: 99 }), CONTRIBUTOR);
    await expect(restore(store)).rejects.toMatchObject({
      status: 403,
      code: 'unauthorized',
      message: 'User cannot restore trashed posts',
    });
    expect(restorePost).not.toHaveBeenCalled();
  });

  it('context=edit without the right to edit: 403 "User cannot edit post", though the caller may delete it', async () => {
    // A role that may delete its own posts but not edit them.
    const { store, restorePost } = stubStore(trashed(), ['read', 'delete_posts']);
    await expect(restore(store, { context: 'edit' })).rejects.toMatchObject({
      status: 403,
      message: 'User cannot edit post',
    });
    expect(restorePost).not.toHaveBeenCalled();
  });
});
