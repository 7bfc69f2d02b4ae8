// @store-independent
import { describe, expect, it } from 'vitest';
import { deepFreeze, jsonWithKeptParts } from '../../../src/platform/answers/frozen.js';

describe('jsonWithKeptParts', () => {
  const values: unknown[] = [
    null,
    0,
    'text "quoted" \u2028',
    [],
    {},
    [1, undefined, () => 1, Symbol('s'), null, 'x'],
    { a: 1, skipped: undefined, f: () => 1, s: Symbol('s'), nested: { b: [true, { c: 'd' }] }, '"key"': 2 },
    { at: new Date(Date.UTC(2026, 10, 26)), list: [new Date(0)] },
    deepFreeze({
      found: 2,
      posts: [
        { ID: 1, tags: {} },
        { ID: 2, title: 'é' },
      ],
    }),
    {
      found: 2,
      posts: [deepFreeze({ ID: 1, meta: { links: { self: 'u' } } }), deepFreeze({ ID: 2, skipped: undefined })],
    },
  ];

  it('writes what JSON.stringify writes', () => {
    for (const value of values) expect(jsonWithKeptParts(value, new WeakMap())).toBe(JSON.stringify(value));
  });

  it('serialises a frozen part once and uses its kept text in every later answer', () => {
    const kept = new WeakMap<object, string>();
    const post = deepFreeze({ ID: 7, title: 'kept' });
    expect(jsonWithKeptParts({ posts: [post] }, kept)).toBe('{"posts":[{"ID":7,"title":"kept"}]}');
    expect(kept.get(post)).toBe('{"ID":7,"title":"kept"}');
    // The kept text is what the next answer holds (set by hand here, to see it used and not written again).
    kept.set(post, '{"ID":7}');
    expect(jsonWithKeptParts({ found: 1, posts: [post] }, kept)).toBe('{"found":1,"posts":[{"ID":7}]}');
  });

  it('keeps nothing for parts that are not frozen', () => {
    const kept = new WeakMap<object, string>();
    const post = { ID: 8 };
    jsonWithKeptParts({ posts: [post] }, kept);
    expect(kept.has(post)).toBe(false);
  });
});

describe('deepFreeze', () => {
  it('freezes every object inside', () => {
    const value = deepFreeze({ a: { b: [{ c: 1 }] } });
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
    expect(() => {
      (value.a.b[0] as { c: number }).c = 2;
    }).toThrow(TypeError);
  });
});

describe('jsonWithKeptParts where nothing is kept', () => {
  it('looks no deeper than an answer holds its posts, and keeps nothing from an answer without frozen parts', () => {
    const kept = new WeakMap<object, string>();
    const deep = deepFreeze({ inside: true });
    // A frozen object four levels down (inside a post's own objects) is written, not looked for.
    const answer = { posts: [{ author: { site: { deep } } }] };
    expect(jsonWithKeptParts(answer, kept)).toBe(JSON.stringify(answer));
    expect(kept.has(deep)).toBe(false);
  });
});
