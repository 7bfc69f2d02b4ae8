import { filterPlainText, filterPostHtml, filterTitleHtml } from './kses.js';

/**
 * The one way text a caller sends reaches the store (docs/decisions/stored-text.md).
 *
 * Every text column a write of the store takes (a post's title, content and
 * excerpt, as saved, autosaved and kept as a revision; a term's name and
 * description; a media item's title, caption, description and alt) is typed `StoredText`, and only
 * `storedText` below makes one: it filters the text as the platform filters
 * that field for the writer. A plain `string` does not compile into those
 * writes (`test/services/publishing/stored-text.test-d.ts`), so a new way in
 * cannot forget the filter: it has no other way to get a `StoredText`.
 */

declare const filteredForTheStore: unique symbol;

/** Text that went through `storedText`: the only text the store's writes take. */
export type StoredText = string & { readonly [filteredForTheStore]: true };

/**
 * The fields of stored text, each with the platform's filter for it:
 * - `title`: `title_save_pre` (`wp_filter_kses`, the small `$allowedtags`), unless the writer has `unfiltered_html`;
 * - `content`, `excerpt`: `content_save_pre` / `excerpt_save_pre` (`wp_filter_post_kses`), unless `unfiltered_html`;
 * - `termName`: `pre_term_name` (`sanitize_text_field`, `wp_filter_kses`, `_wp_specialchars`): no tags at all, for
 *   every writer (the platform strips them for administrators too), `&`, `<`, `>` as entities;
 * - `termDescription`: `pre_term_description` (`wp_filter_kses`), unless `unfiltered_html`;
 * - `mediaAlt`: an image's alternative text (`wp_strip_all_tags` in the media endpoints): no tags, for every writer.
 *
 * A media item is a post of the platform: its title is stored as `title`, its caption as `excerpt`, its
 * description as `content`.
 */
export type TextField = 'title' | 'content' | 'excerpt' | 'termName' | 'termDescription' | 'mediaAlt';

/** Nothing: what a post or term without that text stores. */
export const NO_TEXT = '' as StoredText;

/** Capabilities of no one: `storedText` with these filters whatever it is given (text stored before the filter). */
export const UNTRUSTED: ReadonlySet<string> = new Set();

/**
 * `text` as `field` is stored for a writer with `capabilities` (their role's on
 * the site the text goes to): filtered as the platform's kses filters it for
 * that field, or as sent where the platform keeps it as sent for the writer
 * (`unfiltered_html`: administrators and editors).
 */
export function storedText(field: TextField, text: string, capabilities: ReadonlySet<string>): StoredText {
  if (field === 'termName' || field === 'mediaAlt') return filterPlainText(text) as StoredText;
  if (capabilities.has('unfiltered_html')) return text as StoredText;
  const filtered = field === 'content' || field === 'excerpt' ? filterPostHtml(text) : filterTitleHtml(text);
  return filtered as StoredText;
}

/** A post's text fields as a write sends them. */
export interface PostText {
  title?: string;
  content?: string;
  excerpt?: string;
}

/** `T` with its post text fields as stored (`storedText`). */
export type WithStoredText<T extends PostText> = Omit<T, keyof PostText> & {
  [K in keyof PostText & keyof T]: undefined extends T[K] ? StoredText | undefined : StoredText;
};

/** The post text fields given (`storedText` of each), the other fields as they are; a field not given stays out. */
export function storedPostText<T extends PostText>(text: T, capabilities: ReadonlySet<string>): WithStoredText<T> {
  const stored: Record<string, unknown> = { ...(text as Record<string, unknown>) };
  for (const field of ['title', 'content', 'excerpt'] as const) {
    const value = text[field];
    if (value === undefined) delete stored[field];
    else stored[field] = storedText(field, value, capabilities);
  }
  return stored as WithStoredText<T>;
}
