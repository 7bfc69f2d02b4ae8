/**
 * The records the publishing service works with, as the domain names them
 * (camelCase, flags as booleans, lists as arrays). The store
 * (`store/kysely/`) makes them from its rows (`store/tables.ts`); times are
 * ISO-8601 UTC text, as stored.
 */

/** A site: numeric ID, domain, and an optional sub-folder (`domain::path` in the API). */
export interface SiteRecord {
  id: number;
  domain: string;
  /** Sub-folder without slashes (`blog`, `a/b`); `''` for a site at the domain root. */
  path: string;
  name: string;
  description: string;
  lang: string;
  isPrivate: boolean;
  /** Post types the API exposes besides `post` and `page` (`rest_api_allowed_post_types`). */
  extraPostTypes: string[];
}

export interface UserRecord {
  id: number;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
  niceName: string;
  url: string;
  avatarUrl: string;
  /** The account of the person this user is; null for a user without one. */
  accountId: string | null;
  /** The user's primary site: the first (lowest-numbered) site they have a role on; null when none. */
  primarySiteId: number | null;
}

/** What trashing a post remembered: the status and slug that restoring gives back. */
export interface TrashMemory {
  previousStatus: string;
  trashedAt: string;
  originalSlug: string;
}

/** A post (or page, or any other post type); its `date` and `modified` are ISO-8601 UTC. */
export interface PostRecord {
  id: number;
  siteId: number;
  authorId: number | null;
  type: string;
  status: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  password: string;
  parentId: number | null;
  guid: string;
  date: string;
  modified: string;
  sticky: boolean;
  commentStatus: string;
  pingStatus: string;
  likesEnabled: boolean;
  sharingEnabled: boolean;
  menuOrder: number;
  pageTemplate: string;
  featuredMediaId: number | null;
  /** URLs of the post on social networks. */
  publicizeUrls: string[];
  /** Set while the post is in the trash. */
  trash: TrashMemory | null;
  /** The title, content and excerpt were stored without the post filter by a user without `unfiltered_html` (before the filter existed): they are filtered when read. */
  htmlUnchecked: boolean;
}

/** A parent (or further ancestor) of a post or page. */
export interface AncestorRecord extends Pick<PostRecord, 'status' | 'password' | 'authorId' | 'htmlUnchecked'> {
  id: number;
  type: string;
  title: string;
  slug: string;
}

/** A term of the post's site, of a taxonomy: `category`, `post_tag`, `post_format`. */
export interface TermRecord {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  /** Parent term ID; 0 for none. */
  parentId: number;
  /** Published posts with this term. */
  postCount: number;
}

/** A term as a write names it. */
export type TermRef = Pick<TermRecord, 'id' | 'name' | 'slug'>;

/** A media item of the post's site, attached to a post (`postId`) or not; its `date` is ISO-8601 UTC. */
export interface AttachmentRecord {
  id: number;
  postId: number | null;
  authorId: number | null;
  date: string;
  url: string;
  guid: string;
  file: string;
  mimeType: string;
  title: string;
  caption: string;
  description: string;
  alt: string;
  width: number;
  height: number;
}

/** A post's metadata entry; keys starting with `_` are protected. */
export interface MetadataRecord {
  id: number;
  key: string;
  value: unknown;
}

/** An approved comment with its author, for the `replies` link. */
export interface CommentRecord {
  id: number;
  parentId: number | null;
  authorName: string;
  authorEmail: string;
  authorUrl: string;
  date: string;
  content: string;
  author: UserRecord | null;
}

/** Everything around a post that the post object shows. */
export interface PostRelations {
  author: UserRecord | null;
  /** Nearest first: parent, grandparent, ... */
  ancestors: AncestorRecord[];
  terms: TermRecord[];
  /** The most recent attachments (newest first), at most the limit asked for. */
  recentAttachments: AttachmentRecord[];
  attachmentCount: number;
  featuredMedia: AttachmentRecord | null;
  /** Every attachment of the post in ID order, when asked for (galleries are rendered from them). */
  allAttachments: AttachmentRecord[];
  metadata: MetadataRecord[];
  likeCount: number;
  viewerLikes: boolean;
  /** Approved comments. */
  commentCount: number;
  viewerFollowsSite: boolean;
  /** Newest first; empty unless asked for. */
  revisionIds: number[];
}

export interface SiteStats {
  publishedPosts: number;
  followers: number;
  viewerFollows: boolean;
}

/** A site's posts of one type by status: for every author, and for one user. */
export interface PostCountRecord {
  status: string;
  all: number;
  mine: number;
}

/** What a restore wrote; the post's other fields are as they were. */
export type RestoredPost = Pick<PostRecord, 'status' | 'slug' | 'modified'>;

/** A bearer token as `tokens list` shows it: never its hash. */
export interface AccessTokenRecord {
  /** A UUID, shown by `tokens list` and accepted by `tokens revoke --id`. */
  id: string;
  userId: number;
  /** The login of the user it was issued to. */
  login: string;
  createdAt: string;
  revokedAt: string | null;
}

/** An autosave of a post by one user (the platform's autosave revision): what the editor held, and when. */
export interface AutosaveRecord {
  id: number;
  postId: number;
  authorId: number;
  /** ISO-8601 UTC. */
  modified: string;
  title: string;
  content: string;
  excerpt: string;
}

/** A revision of a post, as an edit saved it; `date` is ISO-8601 UTC. */
export interface RevisionRecord {
  id: number;
  postId: number;
  authorId: number | null;
  date: string;
  title: string;
  content: string;
  excerpt: string;
}
