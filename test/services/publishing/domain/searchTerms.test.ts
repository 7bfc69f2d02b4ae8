import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_TERMS, searchTerms } from '../../../../src/services/publishing/domain/searchTerms.js';

/** WP_Query's `parse_search` / `parse_search_terms`, without a store. */
const texts = (search: string) => searchTerms(search).map((term) => (term.exclude ? `-${term.text}` : term.text));

describe('searchTerms (WP_Query parse_search)', () => {
  it('splits on spaces, tabs, commas and +; a quoted phrase is one term', () => {
    expect(texts('ferry harbour')).toEqual(['ferry', 'harbour']);
    expect(texts('ferry,harbour+pier\tnight')).toEqual(['ferry', 'harbour', 'pier', 'night']);
    expect(texts('"old harbour" ferry')).toEqual(['old harbour', 'ferry']);
  });

  it('drops single letters, single dashes and stopwords; keeps one digit', () => {
    expect(texts('a ferry - to the harbour')).toEqual(['ferry', 'harbour']);
    expect(texts('ferry 7')).toEqual(['ferry', '7']);
  });

  it('a term starting with - excludes', () => {
    expect(searchTerms('ferry -storm')).toEqual([
      { text: 'ferry', exclude: false },
      { text: 'storm', exclude: true },
    ]);
  });

  it('nothing left, or more than nine terms: the whole search is one term', () => {
    expect(texts('the of a')).toEqual(['the of a']);
    const many = Array.from({ length: MAX_SEARCH_TERMS + 1 }, (_, i) => `word${i}`).join(' ');
    expect(texts(many)).toEqual([many]);
    const nine = Array.from({ length: MAX_SEARCH_TERMS }, (_, i) => `word${i}`).join(' ');
    expect(texts(nine)).toHaveLength(MAX_SEARCH_TERMS);
  });

  it('line breaks are taken out before splitting', () => {
    expect(texts('fer\nry')).toEqual(['ferry']);
  });
});
