import { describe, expect, it } from 'vitest';
import { mayReadPrivatePost, postCapabilities } from '../../../../src/services/publishing/domain/capabilities.js';
import type { PostRecord } from '../../../../src/services/publishing/domain/records.js';

/** The platform's roles, with the post capabilities the standard-roles migration gives them. */
const EDITOR = [
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
const ROLES: Record<string, ReadonlySet<string>> = {
  administrator: new Set(EDITOR),
  editor: new Set(EDITOR),
  author: new Set(['publish_posts', 'edit_posts', 'edit_published_posts', 'delete_posts', 'delete_published_posts']),
  contributor: new Set(['edit_posts', 'delete_posts']),
  subscriber: new Set(['read']),
  none: new Set(),
};

const ME = 7;
const OTHER = 8;
type Post = Pick<PostRecord, 'authorId' | 'status' | 'trash'>;
const post = (authorId: number | null, status: string, previousStatus?: string): Post => ({
  authorId,
  status,
  trash: previousStatus ? { previousStatus, trashedAt: '', originalSlug: '' } : null,
});
const can = (role: string, target: Post) => {
  const { publish_post, delete_post, edit_post } = postCapabilities(ROLES[role]!, ME, target);
  return { publish: publish_post, delete: delete_post, edit: edit_post };
};

describe('administrators and editors may edit, delete and publish any post', () => {
  it.each(['administrator', 'editor'])('%s', (role) => {
    for (const target of [
      post(OTHER, 'publish'),
      post(OTHER, 'private'),
      post(OTHER, 'trash', 'publish'),
      post(null, 'draft'),
      post(ME, 'future'),
    ]) {
      expect(can(role, target)).toEqual({ publish: true, delete: true, edit: true });
    }
  });
});

describe('authors may edit, delete and publish their own posts only', () => {
  it('on their own, in any status, trashed ones included', () => {
    for (const target of [
      post(ME, 'draft'),
      post(ME, 'publish'),
      post(ME, 'trash', 'publish'),
      post(ME, 'trash', 'draft'),
    ]) {
      expect(can('author', target)).toEqual({ publish: true, delete: true, edit: true });
    }
  });

  it('not on someone else’s, nor on one with no author', () => {
    for (const target of [post(OTHER, 'draft'), post(OTHER, 'trash', 'pending'), post(null, 'draft')]) {
      expect(can('author', target)).toMatchObject({ delete: false, edit: false });
    }
  });
});

describe('contributors may edit and delete their own unpublished posts and may not publish', () => {
  it('on their own drafts and pending posts, in or out of the trash', () => {
    for (const target of [
      post(ME, 'draft'),
      post(ME, 'pending'),
      post(ME, 'trash', 'draft'),
      post(ME, 'trash', 'pending'),
    ]) {
      expect(can('contributor', target)).toEqual({ publish: false, delete: true, edit: true });
    }
  });

  it('not once published or scheduled: for a trashed post the status before the trash decides', () => {
    for (const target of [
      post(ME, 'publish'),
      post(ME, 'future'),
      post(ME, 'trash', 'publish'),
      post(ME, 'trash', 'future'),
    ]) {
      expect(can('contributor', target)).toEqual({ publish: false, delete: false, edit: false });
    }
  });

  it('not on someone else’s', () => {
    expect(can('contributor', post(OTHER, 'trash', 'draft'))).toEqual({ publish: false, delete: false, edit: false });
  });
});

describe('subscribers, and users without a role on the site, may do nothing', () => {
  it.each(['subscriber', 'none'])('%s', (role) => {
    for (const target of [post(ME, 'draft'), post(OTHER, 'trash', 'draft')]) {
      expect(can(role, target)).toEqual({ publish: false, delete: false, edit: false });
    }
  });
});

describe('rights come from primitive capabilities, so a custom role may delete without editing', () => {
  it('delete_others_posts and delete_published_posts without edit_*', () => {
    const moderator = new Set([
      'delete_posts',
      'delete_others_posts',
      'delete_published_posts',
      'delete_private_posts',
    ]);
    expect(postCapabilities(moderator, ME, post(OTHER, 'trash', 'publish'))).toEqual({
      publish_post: false,
      delete_post: true,
      edit_post: false,
    });
    expect(postCapabilities(new Set(['delete_others_posts']), ME, post(OTHER, 'private')).delete_post).toBe(false);
  });
});

describe('a private post may be read by its author with read, by anyone else with read_private_posts', () => {
  it('as read_post maps it', () => {
    expect(mayReadPrivatePost(ROLES.subscriber!, ME, { authorId: ME })).toBe(true);
    expect(mayReadPrivatePost(ROLES.author!, ME, { authorId: OTHER })).toBe(false);
    expect(mayReadPrivatePost(new Set(['read_private_posts']), ME, { authorId: OTHER })).toBe(true);
    expect(mayReadPrivatePost(ROLES.none!, ME, { authorId: ME })).toBe(false);
  });
});
