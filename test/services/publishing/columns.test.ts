// @store-independent
import { describe, expect, it } from 'vitest';
import { camelCased } from '../../../src/services/publishing/store/columns.js';

describe('camelCased', () => {
  it('renames every column to camelCase, in the same order, with the values as they are', () => {
    const row = { id: 7, site_id: 1, featured_media_id: null, publicize_urls: '[]', menu_order: 0, a_1b: true };
    const record = camelCased(row);
    expect(record).toEqual({ id: 7, siteId: 1, featuredMediaId: null, publicizeUrls: '[]', menuOrder: 0, a1b: true });
    expect(Object.keys(record)).toEqual(['id', 'siteId', 'featuredMediaId', 'publicizeUrls', 'menuOrder', 'a1b']);
  });

  it('renames rows of the same columns the same way, and rows of other columns their own way', () => {
    expect(camelCased({ post_id: 1, meta_key: 'a' })).toEqual({ postId: 1, metaKey: 'a' });
    expect(camelCased({ post_id: 2, meta_key: 'b' })).toEqual({ postId: 2, metaKey: 'b' });
    expect(camelCased({ meta_key: 'c', post_id: 3 })).toEqual({ metaKey: 'c', postId: 3 });
    expect(camelCased({ post_id: 4 })).toEqual({ postId: 4 });
    expect(camelCased({})).toEqual({});
  });

  it('keeps any column name as data: quotes and backslashes, and a name that would be __proto__', () => {
    const odd = { 'it"s': 1, 'back\\slash': 2, 'x); throw 1; (': 3 };
    expect(camelCased(odd)).toEqual(odd);
    const record = camelCased({ ['__proto__']: 2 } as Record<string, number>) as Record<string, unknown>;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(record).toEqual({ _Proto__: 2 });
  });
});
