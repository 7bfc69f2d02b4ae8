import type { Post } from '../../../../generated/publishing/types.gen.js';
import { RELATION_PARTS, type RelationPart } from '../domain/publishingStore.js';

/*
 * What the keys of the post object are built from: a presenter asked for
 * some keys (`fields`) reads only the relations those keys need.
 */

/** What a key of the post object is built from, beyond the post, its site and the caller's rights (`RelationPart`s and more). */
export type PostKeyNeed = RelationPart | 'allAttachments' | 'revisions' | 'suggestedSlug' | 'metaData';

/**
 * What each key of the post object needs beyond the post, its site and the
 * caller's rights: a key not named here needs nothing else. `meta` needs
 * the ancestors only when the `meta` parameter loads links (see `present`).
 */
const NEEDS: ReadonlyMap<string, readonly PostKeyNeed[]> = new Map(
  Object.entries({
    author: ['author'],
    URL: ['ancestors'],
    content: ['allAttachments'],
    parent: ['ancestors'],
    discussion: ['counts'],
    like_count: ['counts'],
    i_like: ['counts'],
    is_following: ['counts'],
    featured_image: ['featuredMedia'],
    post_thumbnail: ['featuredMedia'],
    format: ['terms'],
    geo: ['metadata'],
    terms: ['terms'],
    tags: ['terms'],
    categories: ['terms'],
    attachments: ['recentAttachments'],
    attachment_count: ['counts'],
    metadata: ['metadata'],
    meta: ['metaData'],
    revisions: ['revisions'],
    other_URLs: ['ancestors', 'suggestedSlug'],
  } satisfies Partial<Record<keyof Post, readonly PostKeyNeed[]>>),
);

/** Everything a key may need: what the whole post object is built from. */
const EVERY_NEED: ReadonlySet<PostKeyNeed> = new Set([...NEEDS.values()].flat());

/** What the keys asked for (`fields`; undefined: every key) are built from: see `NEEDS`. */
export function needsOf(wanted: ReadonlySet<string> | undefined): ReadonlySet<PostKeyNeed> {
  if (!wanted) return EVERY_NEED;
  const needs = new Set<PostKeyNeed>();
  // A map, not an object: a name such as `constructor` or `__proto__` is a key the post object lacks, nothing more.
  for (const key of wanted) for (const need of NEEDS.get(key) ?? []) needs.add(need);
  return needs;
}

/** The parts of what surrounds a post among what keys need (`needsOf`): `RelationsRequest.parts`. */
export function relationPartsOf(needs: ReadonlySet<PostKeyNeed>): Set<RelationPart> {
  return new Set(RELATION_PARTS.filter((part) => needs.has(part)));
}
