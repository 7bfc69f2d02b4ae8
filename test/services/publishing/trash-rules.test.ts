// @store-independent
import { describe, expect, it } from 'vitest';
import { parseSiteRef } from '../../../src/services/publishing/domain/siteRef.js';
import {
  desiredSlugOnRestore,
  slugMustBeUnique,
  trashedSlug,
  uniqueSlug,
} from '../../../src/services/publishing/store/trashRules.js';

describe('trashing suffixes the slug with __trashed', () => {
  it('once', () => {
    expect(trashedSlug('hello-world')).toBe('hello-world__trashed');
    expect(trashedSlug('hello-world__trashed')).toBe('hello-world__trashed');
  });
});

describe('restoring asks for the original slug', () => {
  it('the remembered one, else the current one without the suffix', () => {
    expect(desiredSlugOnRestore('hello-world__trashed', 'hello-world')).toBe('hello-world');
    expect(desiredSlugOnRestore('hello-world__trashed', undefined)).toBe('hello-world');
    expect(desiredSlugOnRestore('renamed', undefined)).toBe('renamed');
  });

  it('made unique with -2, -3, ... when taken, except for drafts and pending posts', () => {
    expect(uniqueSlug('news', new Set())).toBe('news');
    expect(uniqueSlug('news', new Set(['news', 'news-2', 'news-4']))).toBe('news-3');
    expect(slugMustBeUnique('publish', 'news')).toBe(true);
    expect(slugMustBeUnique('private', 'news')).toBe(true);
    expect(slugMustBeUnique('draft', 'news')).toBe(false);
    expect(slugMustBeUnique('pending', 'news')).toBe(false);
    expect(slugMustBeUnique('publish', '')).toBe(false);
  });
});

describe('the site parameter', () => {
  it('is an ID when all digits, else a domain with :: separating sub-folders', () => {
    expect(parseSiteRef('42')).toEqual({ kind: 'id', id: 42 });
    expect(parseSiteRef('demo.example.com')).toEqual({ kind: 'address', domain: 'demo.example.com', path: '' });
    expect(parseSiteRef('demo.example.com::blog')).toEqual({
      kind: 'address',
      domain: 'demo.example.com',
      path: 'blog',
    });
    expect(parseSiteRef('demo.example.com::a::b')).toEqual({
      kind: 'address',
      domain: 'demo.example.com',
      path: 'a/b',
    });
  });
});
