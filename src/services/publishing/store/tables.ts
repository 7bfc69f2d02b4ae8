import type { ColumnType } from 'kysely';
import type { AccountsTables } from '../../../accounts/tables.js';
import type { PostColumns } from '../domain/postColumns.js';
import type { AttachmentRecord, SiteRecord } from '../domain/records.js';

/**
 * Tables of the publishing service, as Kysely sees them. Portable across
 * SQLite and PostgreSQL: explicit integer IDs (no autoincrement), booleans
 * as 0/1, timestamps as ISO-8601 text (`Date#toISOString`, so they sort as
 * text), free-form values as JSON text. A column stored as the domain's
 * record has it (same name, same value) is declared by the record
 * (`domain/records.ts`).
 */

/** A site: numeric ID, domain, and an optional sub-folder (`domain::path` in the API). */
export interface SitesTable extends Pick<SiteRecord, 'id' | 'domain' | 'path' | 'name' | 'description' | 'lang'> {
  is_private: number;
  /** JSON array of the post types the API exposes besides `post` and `page` (`rest_api_allowed_post_types`). */
  extra_post_types: string;
}

export interface UsersTable {
  id: number;
  login: string;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
  nice_name: string;
  url: string;
  avatar_url: string;
  /** The account of the person this user is (`accounts.id`); null for a user without one. */
  account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Each user's role on a site. */
export interface SiteRolesTable {
  site_id: number;
  user_id: number;
  role: string;
}

/** The primitive capabilities of each role (`edit_posts`, `delete_others_posts`, ...). */
export interface RoleCapabilitiesTable {
  role: string;
  capability: string;
}

/** Users who follow a site. */
export interface SiteFollowersTable {
  site_id: number;
  user_id: number;
}

/** Bearer tokens, stored only as the SHA-256 hash of the token. */
export interface AccessTokensTable {
  /** A UUID, shown by `tokens list` and accepted by `tokens revoke --id`. */
  id: string;
  token_hash: string;
  user_id: number;
  created_at: string;
  revoked_at: string | null;
}

/**
 * Posts and pages (and any other post type), in the columns their writes name
 * (`PostColumns`); the text columns hold any text here (what the store's
 * writes take is `StoredText`, the rows of the demo data and the operator's
 * are theirs).
 */
export interface PostsTable extends Omit<PostColumns, 'title' | 'content' | 'excerpt'> {
  title: string;
  content: string;
  excerpt: string;
}

/** The trash memory of a trashed post: what restoring it gives back. */
export interface TrashMetaTable {
  post_id: number;
  previous_status: string;
  trashed_at: string;
  original_slug: string;
}

/** Terms of a site's taxonomies: `category`, `post_tag`, `post_format`. */
export interface TermsTable {
  id: number;
  site_id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  /** Parent term ID; 0 for none. */
  parent_id: number;
}

export interface PostTermsTable {
  post_id: number;
  term_id: number;
}

/** Media items, attached to a post (`post_id`) or not. */
export interface AttachmentsTable
  extends Pick<
    AttachmentRecord,
    'id' | 'date' | 'url' | 'guid' | 'file' | 'title' | 'caption' | 'description' | 'alt' | 'width' | 'height'
  > {
  site_id: number;
  post_id: number | null;
  author_id: number | null;
  mime_type: string;
  /** The key of its current file in the file store (null: a file that lives elsewhere). */
  storage_key: ColumnType<string | null, string | null | undefined, string | null>;
  bytes: ColumnType<number | string, number | undefined, number>;
  modified: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Every file a media item holds or held (its current one and those edits replaced). */
export interface MediaFilesTable {
  key: string;
  site_id: number;
  media_id: number;
  file: string;
  mime_type: string;
  /** A bigint: PostgreSQL answers it as text. */
  bytes: ColumnType<number | string, number, number>;
  width: number;
  height: number;
  created: string;
}

/** Post metadata; keys starting with `_` are protected. */
export interface PostMetaTable {
  id: number;
  post_id: number;
  meta_key: string;
  /** JSON text. */
  meta_value: string;
}

export interface LikesTable {
  post_id: number;
  user_id: number;
  date: string;
}

export interface CommentsTable {
  id: number;
  post_id: number;
  parent_id: number | null;
  author_id: number | null;
  author_name: string;
  author_email: string;
  author_url: string;
  date: string;
  content: string;
  /** `approved`, `unapproved`, `spam`, `trash`, or `post-trashed` while its post is in the trash. */
  status: string;
  /** The status to give back when the post leaves the trash. */
  status_before_trash: string | null;
}

export interface RevisionsTable {
  id: number;
  post_id: number;
  author_id: number | null;
  date: string;
  title: string;
  content: string;
  excerpt: string;
}

/** Each user's autosave of a post (migration 12): what the editor held, not yet saved to the post. */
export interface AutosavesTable {
  id: number;
  post_id: number;
  author_id: number;
  modified: string;
  title: string;
  content: string;
  excerpt: string;
}

/**
 * How many posts of a site and type have a status and an author (0: none);
 * kept by triggers on `posts` (migration 05), never written by the code.
 */
export interface PostCountsTable {
  site_id: number;
  type: string;
  status: string;
  author_id: number;
  n: number;
}

/**
 * The store as the publishing module is handed it (`ServiceModule`'s
 * tables): its own tables, and the accounts' it reads through the
 * accounts' functions (an OAuth token's grant, the registered apps'
 * origins, a user's account by email). It writes none of the accounts'
 * (`test/platform/imports.test.ts`).
 */
export type PublishingDatabase = PublishingTables & AccountsTables;

/** Tables of the publishing service. */
export interface PublishingTables {
  sites: SitesTable;
  users: UsersTable;
  site_roles: SiteRolesTable;
  role_capabilities: RoleCapabilitiesTable;
  site_followers: SiteFollowersTable;
  access_tokens: AccessTokensTable;
  posts: PostsTable;
  trash_meta: TrashMetaTable;
  terms: TermsTable;
  post_terms: PostTermsTable;
  attachments: AttachmentsTable;
  media_files: MediaFilesTable;
  post_meta: PostMetaTable;
  likes: LikesTable;
  comments: CommentsTable;
  revisions: RevisionsTable;
  post_counts: PostCountsTable;
  autosaves: AutosavesTable;
}
