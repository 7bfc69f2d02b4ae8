import { describe, expect, it } from 'vitest';
import { mayReadPrivatePost, postCapabilities } from '../../../../src/services/publishing/domain/capabilities.js';

/**
 * The platform's `map_meta_cap` for posts, without a store: the standard
 * roles' primitive capabilities (as the migrations give them) against own
 * and others' posts in each status.
 */
const EDITOR = [
  'read',
  'publish_posts',
  'edit_posts',
  'edit_others_posts',
  'edit_published_posts',
  'edit_private_posts',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
];
const roles = {
  editor: new Set(EDITOR),
  author: new Set([
    'read',
    'publish_posts',
    'edit_posts',
    'edit_published_posts',
    'delete_posts',
    'delete_published_posts',
  ]),
  contributor: new Set(['read', 'edit_posts', 'delete_posts']),
  subscriber: new Set(['read']),
};
const ME = 7;
const post = (status: string, authorId: number | null = ME, previousStatus?: string) => ({
  authorId,
  status,
  trash: previousStatus ? { previousStatus } : null,
});
const rights = (role: keyof typeof roles, on: ReturnType<typeof post>) =>
  postCapabilities(roles[role], ME, on as Parameters<typeof postCapabilities>[2]);

describe('postCapabilities (map_meta_cap)', () => {
  it('editors may edit, delete and publish any post, own or others\u2019, in any status', () => {
    for (const status of ['draft', 'pending', 'publish', 'future', 'private'])
      for (const author of [ME, 99, null])
        expect(rights('editor', post(status, author)), `${status} by ${author}`).toEqual({
          publish_post: true,
          delete_post: true,
          edit_post: true,
        });
  });

  it('authors their own posts only, published or not', () => {
    expect(rights('author', post('publish'))).toEqual({ publish_post: true, delete_post: true, edit_post: true });
    expect(rights('author', post('draft'))).toEqual({ publish_post: true, delete_post: true, edit_post: true });
    expect(rights('author', post('draft', 99))).toEqual({ publish_post: true, delete_post: false, edit_post: false });
  });

  it('contributors their own unpublished posts, and may not publish', () => {
    expect(rights('contributor', post('draft'))).toEqual({ publish_post: false, delete_post: true, edit_post: true });
    expect(rights('contributor', post('pending'))).toEqual({ publish_post: false, delete_post: true, edit_post: true });
    for (const status of ['publish', 'future'])
      expect(rights('contributor', post(status)), status).toEqual({
        publish_post: false,
        delete_post: false,
        edit_post: false,
      });
  });

  it('a trashed post is judged by the status it had before the trash', () => {
    expect(rights('contributor', post('trash', ME, 'draft')).delete_post).toBe(true);
    expect(rights('contributor', post('trash', ME, 'publish')).delete_post).toBe(false);
    expect(rights('author', post('trash', ME, 'publish')).delete_post).toBe(true);
  });

  it('subscribers nothing, and a post without an author is nobody\u2019s own', () => {
    expect(rights('subscriber', post('draft'))).toEqual({ publish_post: false, delete_post: false, edit_post: false });
    expect(postCapabilities(roles.author, ME, { authorId: null, status: 'draft', trash: null }).edit_post).toBe(false);
  });
});

describe('mayReadPrivatePost (read_post on a private post)', () => {
  it('its author with read; anyone else with read_private_posts', () => {
    expect(mayReadPrivatePost(roles.subscriber, ME, { authorId: ME })).toBe(true);
    expect(mayReadPrivatePost(roles.author, ME, { authorId: 99 })).toBe(false);
    expect(mayReadPrivatePost(new Set(['read_private_posts']), ME, { authorId: 99 })).toBe(true);
    expect(mayReadPrivatePost(new Set(), ME, { authorId: ME })).toBe(false);
  });
});
