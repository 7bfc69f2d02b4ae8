import type { PostRecord } from './records.js';
import type { StoredText } from './storedText.js';

/**
 * A post as its writes name it: by the names and values it is stored with
 * (flags as 0/1, publicized URLs as JSON text), which the store writes as
 * they are (`store/tables.ts` keeps the `posts` table in these columns). A
 * post as read is a `PostRecord` (`records.ts`), whose fields of the same
 * name and value it shares.
 */
export interface PostColumns
  extends Pick<PostRecord, 'id' | 'type' | 'status' | 'slug' | 'password' | 'guid' | 'date' | 'modified'> {
  /** The post's text, only as `storedText` gives it (filtered for its writer): a plain string does not compile here. */
  title: StoredText;
  content: StoredText;
  excerpt: StoredText;
  site_id: number;
  author_id: number | null;
  parent_id: number | null;
  sticky: number;
  comment_status: string;
  ping_status: string;
  likes_enabled: number;
  sharing_enabled: number;
  menu_order: number;
  page_template: string;
  featured_media_id: number | null;
  /** JSON array of URLs on social networks. */
  publicize_urls: string;
  /** 1: the title, content and excerpt never went through the post filter (stored before it, by a user without `unfiltered_html`) and are filtered when read; 0 otherwise. */
  html_unchecked: number;
}

/** A new post's columns: everything but its ID and GUID, which the store gives it (a column that may be null may be left out). */
export type NewPost = Omit<PostColumns, 'id' | 'guid' | 'author_id' | 'parent_id' | 'featured_media_id'> &
  Partial<Pick<PostColumns, 'author_id' | 'parent_id' | 'featured_media_id'>>;

/** The columns an edit changes (a column left out keeps its value). */
export type PostChanges = Partial<PostColumns>;

/** The columns a new post starts with unless it says otherwise: not sticky, open to comments and pings, likes and sharing on, no order, template, featured image or publicized URLs. */
export const NEW_POST_DEFAULTS = {
  sticky: 0,
  comment_status: 'open',
  ping_status: 'open',
  likes_enabled: 1,
  sharing_enabled: 1,
  menu_order: 0,
  page_template: '',
  featured_media_id: null,
  publicize_urls: '[]',
  html_unchecked: 0,
} as const;
