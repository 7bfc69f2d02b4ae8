/** One term of a list's `search`: text a post's title, excerpt or content must contain (or, `exclude`, none of them may). */
export interface SearchTerm {
  text: string;
  exclude: boolean;
}

/** The platform's default search stopwords (WP_Query::get_search_stopwords, English). */
const STOPWORDS: ReadonlySet<string> = new Set(
  'about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(
    ' ',
  ),
);

/** Most terms a search is split into; a longer search is one term, as the platform does. */
export const MAX_SEARCH_TERMS = 9;

/**
 * A list's `search` as the platform's WP_Query splits it (`parse_search`,
 * `parse_search_terms`): terms separated by spaces, tabs, commas or `+`, a
 * quoted phrase one term; quotes trimmed; single letters, single dashes and
 * stopwords dropped. When nothing is left, or more than nine terms, the
 * whole search is one term. A term starting with `-` excludes the posts that
 * contain the rest of it. Each term is then matched as a substring of the
 * title, excerpt or content, in any case (`LIKE %term%`).
 */
export function searchTerms(given: string): SearchTerm[] {
  // There are no line breaks in a search field.
  const search = given.replace(/[\r\n]/g, '');
  const found = search.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  const checked: string[] = [];
  for (const raw of found) {
    // A quoted phrase keeps its inner spaces.
    const term = /^".+"$/.test(raw) ? trim(raw, `"'`) : trim(raw, `"' `);
    if (!term || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
    if (STOPWORDS.has(term.toLowerCase())) continue;
    checked.push(term);
  }
  const terms = checked.length === 0 || checked.length > MAX_SEARCH_TERMS ? [search] : checked;
  // An empty text (the whole search `-`) is in every post, as `LIKE '%%'` is true: excluding it leaves none.
  return terms.map((term) =>
    term.startsWith('-') ? { text: term.slice(1), exclude: true } : { text: term, exclude: false },
  );
}

/** `value` without the characters of `chars` at either end (PHP's trim with a character list). */
function trim(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start]!)) start++;
  while (end > start && chars.includes(value[end - 1]!)) end--;
  return value.slice(start, end);
}
