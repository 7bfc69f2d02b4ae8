import type { NewPost, PostChanges } from './postColumns.js';
import type {
  AccessTokenRecord,
  AutosaveRecord,
  RevisionRecord,
  TermRecord,
  AncestorRecord,
  CommentRecord,
  MetadataRecord,
  PostCountRecord,
  PostRecord,
  PostRelations,
  RestoredPost,
  SiteRecord,
  SiteStats,
  TermRef,
  UserRecord,
} from './records.js';
import type { SiteRef } from './siteRef.js';
import type { SearchTerm } from './searchTerms.js';
import type { PublishingMedia } from './media.js';
import type { StoredText } from './storedText.js';

/**
 * What the publishing service needs from its store, in domain terms (the
 * records of `records.ts`). The flows, handlers and admin commands use only
 * this interface; `store/kyselyPublishingStore.ts` implements it for SQLite
 * and PostgreSQL alike, one part per concern (`store/kysely/`).
 */

/**
 * The parts of what surrounds a post that a read may leave out: the author,
 * the ancestors, the terms (with their counts), the recent attachments, the
 * featured image, the counts (attachments, likes, comments, the viewer's
 * like and follow) and the metadata.
 */
export const RELATION_PARTS = [
  'author',
  'ancestors',
  'terms',
  'recentAttachments',
  'featuredMedia',
  'counts',
  'metadata',
] as const;
export type RelationPart = (typeof RELATION_PARTS)[number];

/**
 * What `postRelations` reads around a post: for which viewer, how many
 * recent attachments, whether every attachment and the revisions, and
 * which parts (`parts`; undefined: every one). A part left out is not read
 * and answered empty: no author, no ancestors, terms, attachments or
 * metadata, no featured image, counts of 0 and `false`.
 */
export interface RelationsRequest {
  viewerId: number;
  recentAttachments: number;
  allAttachments: boolean;
  revisions: boolean;
  parts?: ReadonlySet<RelationPart>;
}

/** What `pageRelations` reads for every post of a page: as `RelationsRequest`, every attachment only for the posts `allAttachments` names. */
export interface PageRelationsRequest extends Omit<RelationsRequest, 'allAttachments'> {
  allAttachments: (post: PostRecord) => boolean;
}

/** Which tokens `revokeAccessTokens` revokes. */
export type TokenSelector = { tokenHash: string } | { id: string } | { userId: number };

/** The store: each part below is one concern, implemented by one file of `store/kysely/`. */
export interface PublishingStore
  extends PublishingSites,
    PublishingPosts,
    PublishingPostLists,
    PublishingMedia,
    PostWrites,
    PostFieldWrites,
    PostTrash,
    PostLikes,
    PostComments,
    PublishingUsers,
    PublishingTerms,
    PostAutosaves {
  /**
   * Runs `work` in one transaction with the store over it: every write
   * `work` makes commits together, or none does (a failure rolls them all
   * back and goes up). Store methods that have a transaction of their own
   * run inside this one. `work` must use only the store it is given (on
   * SQLite the one connection is held until the end).
   */
  inTransaction<T>(work: (store: PublishingStore) => Promise<T>): Promise<T>;
  /**
   * A mark of the store's data, read now: while a later mark is the same,
   * nothing the store holds has changed (see the platform's `ChangeMark`).
   * Undefined where the store cannot tell: on PostgreSQL (other instances
   * write unseen), and inside a transaction (its writes may roll back).
   */
  changeMark(): string | undefined;
}

/** Sites, and what a user may do on one. */
export interface PublishingSites {
  findSite(ref: SiteRef): Promise<SiteRecord | undefined>;
  /** The primitive capabilities of the user's role on the site; empty without a role. */
  capabilitiesOf(siteId: number, userId: number): Promise<ReadonlySet<string>>;
  siteStats(siteId: number, viewerId: number): Promise<SiteStats>;
}

/** Posts as read, with what the post object shows around them. */
export interface PublishingPosts {
  /** The post with that ID on that site, with its trash memory. */
  findPost(siteId: number, postId: number): Promise<PostRecord | undefined>;
  /** The newest published post of those types on the site whose slug is `slug`. */
  findPublishedPostBySlug(siteId: number, slug: string, types: readonly string[]): Promise<PostRecord | undefined>;
  postRelations(post: PostRecord, request: RelationsRequest): Promise<PostRelations>;
  /** `postRelations` of each post of a page, in the posts' order, read in one statement per kind of row (not per post). */
  pageRelations(posts: readonly PostRecord[], request: PageRelationsRequest): Promise<PostRelations[]>;
  /** The post's parent, grandparent, ... (nearest first, at most 16), on its site. */
  ancestorsOf(post: Pick<PostRecord, 'siteId' | 'parentId'>): Promise<AncestorRecord[]>;
}

/** What a list of posts may show a viewer: everything, only published posts without a password, or those plus the viewer's own. */
export type ListVisibility = 'all' | 'published' | { ownerId: number };

/** A list of a site's posts: which, in what order, which page. Times are stored ISO-8601 UTC. */
export interface PostListQuery {
  siteId: number;
  types: readonly string[];
  /** At least one. */
  statuses: readonly string[];
  visibleTo: ListVisibility;
  authorId?: number;
  /** The `search` split into terms (`searchTerms`): each in the title, excerpt or content, or, excluded, in none of them. */
  search?: readonly SearchTerm[];
  /** Who asks (the client address's rate-limit key): a search's turn is fair between callers (`fairTurns`). */
  caller?: string;
  sticky: 'include' | 'exclude' | 'require';
  dateAfter?: string;
  dateBefore?: string;
  modifiedAfter?: string;
  modifiedBefore?: string;
  /** Each set: the post has at least one of these term IDs (every set must hold; none is empty). */
  termSets?: readonly (readonly number[])[];
  /** Posts left out by ID (`exclude`). */
  excludeIds?: readonly number[];
  /** Only children of this post; 0: only posts without a parent. */
  parentId?: number;
  /** Only posts with a metadata entry of this key (`meta_key`)... */
  metaKey?: string;
  /** ...whose stored value (JSON text) is one of these (`meta_value`). */
  metaValues?: readonly string[];
  orderBy: 'date' | 'modified' | 'title' | 'comment_count' | 'ID';
  order: 'DESC' | 'ASC';
  /** Only posts past this one in the order (a page handle): its sort value and ID. */
  after?: { value: string | number; id: number };
  offset: number;
  limit: number;
  /** The store's change mark, read by the caller before anything of the list: the page's post records are kept under it (SQLite), and a page read again reads only its IDs. */
  mark?: string;
}

/** A page of posts, each with the value it was sorted by, and how many match in all (from `after` on). */
export interface PostListing {
  found: number;
  posts: { post: PostRecord; sortValue: string | number }[];
}

/** Lists of a site's posts, and their counts. */
export interface PublishingPostLists {
  /** One page of the posts matching the query, ordered by its sort key, then by ID in the same direction. */
  listPosts(query: PostListQuery): Promise<PostListing>;
  /**
   * The IDs of the site's terms of the taxonomy whose slug is one of
   * `slugs`; with `descendants`, with the terms below them too (a
   * hierarchical taxonomy's children, grandchildren, ...).
   */
  termIdsBySlug(siteId: number, taxonomy: string, slugs: readonly string[], descendants: boolean): Promise<number[]>;
  /** The IDs of the site's posts of the type below that post (children, grandchildren, ..., of any status; a loop in the stored parents ends the walk). */
  postIdsBelow(siteId: number, type: string, postId: number): Promise<number[]>;
  /** Per status, how many posts of the type the site has, and how many of them `userId` wrote (the counts the triggers keep). */
  postCounts(siteId: number, type: string, userId: number): Promise<PostCountRecord[]>;
}

/** Writing posts. */
export interface PostWrites {
  /**
   * Inserts a post with the next free ID, its slug made unique when its
   * status needs one (see `uniqueSlugFor`), its GUID from `guidOf(id)`, in
   * one transaction; answers its ID.
   */
  createPost(post: NewPost, guidOf: (id: number) => string): Promise<number>;
  /**
   * Inside `inTransaction` only, before a lookup that decides whether to
   * create (v1.2's `post_exists`): until the transaction ends, any other
   * transaction that asks the same for this site and author waits, so of
   * identical creates arriving together one inserts and the others find its
   * post. PostgreSQL: a transaction-scoped advisory lock on the pair;
   * SQLite: nothing more (a write transaction, `begin immediate`, already
   * excludes every other writer).
   */
  holdCreatesBy(siteId: number, authorId: number): Promise<void>;
  /**
   * Inside `inTransaction` only, before reading a post whose state decides
   * whether an edit may go on (v1.2's `if_not_modified_since`): until the
   * transaction ends, any other transaction that holds or writes the post
   * waits. PostgreSQL: the post's site's row held first (as a write needing
   * a free slug holds it), then the post's row locked `for update`; SQLite:
   * nothing more (a write transaction already excludes every other writer).
   */
  holdPost(postId: number): Promise<void>;
  /**
   * Saves the changes and a revision of the post as saved (title, content,
   * excerpt) in one transaction, the slug made unique when the status needs
   * one. False when there is no such post.
   */
  updatePost(postId: number, changes: PostChanges, revision: { authorId: number; at: string }): Promise<boolean>;
  /** Publishes the site's scheduled posts whose date has come; answers how many. */
  publishDuePosts(siteId: number, at: Date): Promise<number>;
  /**
   * Whether the site has scheduled posts of those types whose date has come
   * (an index seek). With `mark` (the store's change mark, read by the caller
   * first), the earliest scheduled date is kept under it: no statement until
   * that date comes or the mark changes.
   */
  hasDuePosts(siteId: number, types: readonly string[], at: Date, mark?: string): Promise<boolean>;
}

/** What a write sets besides the post's own columns: its terms, its metadata, its author. */
export interface PostFieldWrites {
  /** The site's terms of the taxonomy with one of those IDs, or whose slug or name is one of `names`. */
  findTerms(siteId: number, taxonomy: string, ids: readonly number[], names: readonly string[]): Promise<TermRef[]>;
  /** Adds a term to the site with the next free ID; when the site has one of that taxonomy and slug already (a concurrent add), answers that one. */
  addTerm(siteId: number, taxonomy: string, name: StoredText, slug: string): Promise<TermRef>;
  /** Makes the post's terms of the taxonomy exactly these (the others stay). */
  setPostTerms(postId: number, taxonomy: string, termIds: readonly number[]): Promise<void>;
  /** The post's metadata, in ID order. */
  postMetadata(postId: number): Promise<MetadataRecord[]>;
  /** Adds a metadata entry with the next free ID. */
  addPostMetadata(postId: number, key: string, value: unknown): Promise<void>;
  /** Sets the value of these metadata entries. */
  updatePostMetadata(ids: readonly number[], value: unknown): Promise<void>;
  deletePostMetadata(ids: readonly number[]): Promise<void>;
  /** Whether the site has an attachment of this ID (what a featured image may name). */
  hasAttachment(siteId: number, id: number): Promise<boolean>;
}

/** Trashing, restoring and deleting posts, and the slugs they take. */
export interface PostTrash {
  /**
   * Moves a post to the trash in one transaction: remembers its status, the
   * time and its slug, suffixes the slug with `__trashed`, and sets its
   * comments aside. True when this call made the transition.
   */
  trashPost(postId: number, at: Date): Promise<boolean>;
  /**
   * Takes a post out of the trash in one transaction, with a conditional
   * update on `status = 'trash'` so that of concurrent calls exactly one
   * makes the transition: gives back the remembered status and slug, clears
   * the trash memory, and gives the comments back. When this call made the
   * transition: what it wrote (status, slug, `modified`), so the caller need
   * not read the post again; else undefined.
   */
  restorePost(postId: number, at: Date): Promise<RestoredPost | undefined>;
  /**
   * Deletes a trashed post for good in one transaction, as the platform's
   * `wp_delete_post` does: its child posts and its attachments move up to its
   * parent; its comments, metadata, likes, revisions, terms and trash memory
   * go with it. Only a post still in the trash is deleted, so of concurrent
   * calls (or a concurrent restore) exactly one outcome wins. True when this
   * call deleted it.
   */
  deletePostForGood(postId: number): Promise<boolean>;
  /**
   * The slug, or the first free `slug-2`, `slug-3`, ... among the other posts
   * of the post's site and type (for a page, among those with the same
   * parent), as the platform's `wp_unique_post_slug` makes it.
   */
  uniqueSlugFor(post: Pick<PostRecord, 'id' | 'siteId' | 'type' | 'parentId'>, desired: string): Promise<string>;
}

/** Who likes a post. */
export interface PostLikes {
  /** The first `limit` users who like the post, newest like first, and how many like it in all. */
  postLikers(postId: number, limit: number): Promise<{ found: number; users: UserRecord[] }>;
  /** Whether the user likes the post. */
  likedBy(postId: number, userId: number): Promise<boolean>;
}

/** A post's approved comments. */
export interface PostComments {
  /** The first `limit` approved comments, newest first, and how many there are in all. */
  approvedComments(postId: number, limit: number): Promise<{ found: number; comments: CommentRecord[] }>;
}

/** Users, and the bearer tokens issued to them. */
export interface PublishingUsers {
  findUserByLogin(login: string): Promise<UserRecord | undefined>;
  /** Undefined for an ID the store could not hold (a body's `author` may name any number). */
  findUserById(id: number): Promise<UserRecord | undefined>;
  /** The IDs of the sites where the user has a role, in ID order. */
  sitesOfUser(userId: number): Promise<number[]>;
  /**
   * What the user's account says of them (read through src/accounts, the
   * accounts' owner): when they registered, and whether their address is
   * verified; undefined for a user without an account.
   */
  accountStanding(accountId: string): Promise<{ registeredAt: string; emailVerified: boolean } | undefined>;
  createAccessToken(token: { id: string; tokenHash: string; userId: number; createdAt: Date }): Promise<void>;
  /** The user a token hash belongs to, unless revoked. */
  tokenOwner(tokenHash: string): Promise<number | undefined>;
  /** Revokes the selected active tokens; returns how many. */
  revokeAccessTokens(selector: TokenSelector, at: Date): Promise<number>;
  listAccessTokens(userId?: number): Promise<AccessTokenRecord[]>;
}

/** Which of a site's terms of one taxonomy `listTerms` answers, in what order, which page. */
export interface TermListQuery {
  siteId: number;
  taxonomy: string;
  /** Only terms whose name or slug holds this (any case). */
  search?: string;
  orderBy: 'name' | 'count';
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/** A site's terms: listed, read by slug, added, edited, deleted. */
export interface PublishingTerms {
  /** One page of the site's terms of the taxonomy (ties by ID), with their published posts counted, and how many match in all. */
  listTerms(query: TermListQuery): Promise<{ found: number; terms: TermRecord[] }>;
  /** The site's term of the taxonomy with that slug, its published posts counted. */
  findTermBySlug(siteId: number, taxonomy: string, slug: string): Promise<TermRecord | undefined>;
  /** Whether the site has a term of the taxonomy with that ID. */
  hasTerm(siteId: number, taxonomy: string, id: number): Promise<boolean>;
  /**
   * Adds a term with the next free ID and the slug, or the first free
   * `slug-2`, `slug-3`, ... of the taxonomy, and answers it; answers
   * `undefined`, adding nothing, when the taxonomy has a term of that name
   * under that parent already. Both are decided in the insert's own write,
   * so a crowd adding one name adds one term.
   */
  insertTerm(
    siteId: number,
    taxonomy: string,
    term: { name: StoredText; slug: string; description: StoredText; parentId: number },
  ): Promise<TermRecord | undefined>;
  /** The IDs of the site's terms of the taxonomy below that one (children, grandchildren, ...; a loop in the stored parents ends the walk). */
  termIdsBelow(siteId: number, taxonomy: string, id: number): Promise<number[]>;
  /** Sets the given fields of the site's term of the taxonomy with that ID (the slug stays). */
  updateTerm(
    siteId: number,
    taxonomy: string,
    id: number,
    fields: { name?: StoredText; description?: StoredText; parentId?: number },
  ): Promise<void>;
  /**
   * Deletes the site's term of the taxonomy with that ID, as `wp_delete_term`
   * does, in one transaction: the posts that had it lose it, and those left
   * without a term of the taxonomy get `fallbackId` when given (the default
   * category); the terms below it move up to its parent.
   */
  deleteTerm(siteId: number, taxonomy: string, id: number, fallbackId?: number): Promise<void>;
}

/** An autosave as saved: its text only as `storedText` gives it. */
export type AutosaveWrite = Omit<AutosaveRecord, 'id' | 'title' | 'content' | 'excerpt'> & {
  title: StoredText;
  content: StoredText;
  excerpt: StoredText;
};

/** Autosaves, and the revisions a post keeps. */
export interface PostAutosaves {
  /** Sets the user's autosave of the post (one per user and post), adding it with the next free ID when there is none; answers it. */
  saveAutosave(autosave: AutosaveWrite): Promise<AutosaveRecord>;
  /** The user's autosave of the post. */
  autosaveOf(postId: number, authorId: number): Promise<AutosaveRecord | undefined>;
  /** The post's most recent autosave, by any user. */
  latestAutosave(postId: number): Promise<AutosaveRecord | undefined>;
  /** The post's revisions, oldest first. */
  postRevisions(postId: number): Promise<RevisionRecord[]>;
}
