import { describe, expectTypeOf, it } from 'vitest';
import type { NewPost, PostChanges } from '../../../src/services/publishing/domain/postColumns.js';
import type { NewMedia } from '../../../src/services/publishing/domain/media.js';
import type { AutosaveWrite, PublishingStore } from '../../../src/services/publishing/domain/publishingStore.js';
import { type StoredText, storedText } from '../../../src/services/publishing/domain/storedText.js';

/**
 * The store's writes take text only as `storedText` gives it (issue 52,
 * docs/decisions/stored-text.md): vitest's type check (in `npm test`) runs tsc
 * on this file, and fails if a `@ts-expect-error` below stops being an error,
 * that is if a plain string compiles into one of these writes.
 */
declare const store: PublishingStore;
declare const sent: string;
declare const changes: Omit<PostChanges, 'title' | 'content' | 'excerpt'>;
declare const post: Omit<NewPost, 'title' | 'content' | 'excerpt'>;
declare const media: Omit<NewMedia, 'attributes'>;
declare const file: NewMedia['file'];
const stored = storedText('content', sent, new Set());

describe('text into the store', () => {
  it('is StoredText only when it went through storedText', () => {
    expectTypeOf(stored).toEqualTypeOf<StoredText>();
    expectTypeOf<string>().not.toMatchTypeOf<StoredText>();
    // StoredText is still text wherever a string is read.
    expectTypeOf<StoredText>().toMatchTypeOf<string>();
  });

  it('does not compile from a plain string into a post write, an autosave or a term write', () => {
    const writes = async () => {
      // @ts-expect-error a new post's content must be StoredText
      await store.createPost({ ...post, title: stored, content: sent, excerpt: stored }, String);
      // @ts-expect-error an edit's title must be StoredText
      await store.updatePost(1, { ...changes, title: sent }, { authorId: 1, at: '' });
      const autosave: Omit<AutosaveWrite, 'excerpt'> = {
        postId: 1,
        authorId: 1,
        modified: '',
        title: stored,
        content: stored,
      };
      // @ts-expect-error an autosave's excerpt must be StoredText
      await store.saveAutosave({ ...autosave, excerpt: sent });
      // @ts-expect-error a term's name must be StoredText
      await store.addTerm(1, 'post_tag', sent, 'slug');
      // @ts-expect-error a new term's description must be StoredText
      await store.insertTerm(1, 'category', { name: stored, slug: 's', description: sent, parentId: 0 });
      // @ts-expect-error an edited term's name must be StoredText
      await store.updateTerm(1, 'category', 1, { name: sent });
      // What storedText gives compiles in each of them.
      await store.createPost({ ...post, title: stored, content: stored, excerpt: stored }, String);
      await store.updatePost(1, { ...changes, title: stored }, { authorId: 1, at: '' });
      await store.saveAutosave({ ...autosave, excerpt: stored });
      await store.addTerm(1, 'post_tag', storedText('termName', sent, new Set()), 'slug');
      await store.updateTerm(1, 'category', 1, { name: stored, description: stored });
    };
    expectTypeOf(writes).toBeFunction();
  });

  it('does not compile from a plain string into a media write (title, caption, description, alt)', () => {
    const attributes = { title: stored, caption: stored, description: stored, alt: stored, postId: null };
    const writes = async () => {
      // @ts-expect-error a new item's caption must be StoredText
      await store.insertMedia({ ...media, attributes: { ...attributes, caption: sent } });
      // @ts-expect-error a new item's alt text must be StoredText
      await store.insertMedia({ ...media, attributes: { ...attributes, alt: sent } });
      // @ts-expect-error an item's new title must be StoredText
      await store.updateMedia(1, 1, { title: sent }, '');
      // @ts-expect-error an item's new description must be StoredText
      await store.updateMedia(1, 1, { description: sent }, '');
      // @ts-expect-error an edit's caption must be StoredText
      await store.replaceMediaFile(1, 1, file, '', { caption: sent }, '', 1);
      // What storedText gives compiles in each of them.
      await store.insertMedia({ ...media, attributes });
      await store.updateMedia(1, 1, { title: stored, description: stored, alt: stored }, '');
      await store.replaceMediaFile(1, 1, file, '', { caption: stored }, '', 1);
    };
    expectTypeOf(writes).toBeFunction();
  });
});
