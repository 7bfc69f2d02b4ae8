import { filterTitleHtml } from './kses.js';

/**
 * A term's name or description as it is stored: as sent for a caller with
 * `unfiltered_html`, else through the HTML filter (`wp_filter_kses`, the
 * platform's `pre_term_name` and `pre_term_description` filters), wherever
 * a term is written (the term endpoints, and a write that adds a term by
 * name).
 */
export const storedTermText = (roleCapabilities: ReadonlySet<string>, text: string): string =>
  roleCapabilities.has('unfiltered_html') ? text : filterTitleHtml(text);
