import { SqliteAdapter, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { PublishingTables } from './tables.js';
import { camelCased } from '../../../platform/store/columns.js';
import { prepared } from '../../../platform/store/prepared.js';
import { isUniqueViolation } from '../../../platform/store/uniqueViolation.js';
import { desiredSlugOnRestore, slugMustBeUnique, STATUS_WITHOUT_TRASH_MEMORY, trashedSlug, uniqueSlug } from '../domain/trash.js';
import type {
  AccessTokenRecord,
  AncestorRecord,
  AttachmentRecord,
  CommentRecord,
  PostRecord,
  PostRelations,
  PublishingStore,
  RelationsRequest,
  RestoredPost,
  SiteRecord,
  SiteRef,
  SiteStats,
  TermRecord,
  TokenSelector,
  UserRecord,
} from './publishingStore.js';
import type { AttachmentsTable, PostsTable, UsersTable } from './tables.js';

/** The largest ID an `integer` column holds on PostgreSQL; a larger one cannot name a stored row. */
const MAX_STORED_ID = 2_147_483_647;

/** How many times a restore looks again for a free slug that concurrent restores keep taking. */
const MAX_SLUG_ATTEMPTS = 20;

/** How far up a page hierarchy permalinks look. */
const MAX_ANCESTORS = 16;

const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_STORED_ID;

/** A user row with the user's primary site (see `primarySite`). */
type UserRow = Selectable<UsersTable> & { primary_site_id: number | null };

/** The user's primary site: the lowest site ID they have a role on (the platform's first blog of the user). */
const primarySite = (eb: ExpressionBuilder<PublishingTables, 'users'>) =>
  eb
    .selectFrom('site_roles')
    .select((inner) => inner.fn.min<number>('site_roles.site_id').as('site_id'))
    .whereRef('site_roles.user_id', '=', 'users.id')
    .as('primary_site_id');

const toUser = (row: UserRow): UserRecord => ({
  ...camelCased(row),
  // min() comes back as a string from some drivers.
  primarySiteId: row.primary_site_id === null ? null : Number(row.primary_site_id),
});

const toAttachment = ({ site_id: _siteId, ...row }: Selectable<AttachmentsTable>): AttachmentRecord => camelCased(row);

/** A post row with its trash memory left-joined (all null when the post was not trashed). */
type PostRow = Selectable<PostsTable> & {
  trash_previous_status: string | null;
  trash_trashed_at: string | null;
  trash_original_slug: string | null;
};

const toPost = ({ trash_previous_status, trash_trashed_at, trash_original_slug, ...row }: PostRow): PostRecord => ({
  ...camelCased(row),
  sticky: row.sticky === 1,
  likesEnabled: row.likes_enabled === 1,
  sharingEnabled: row.sharing_enabled === 1,
  publicizeUrls: JSON.parse(row.publicize_urls) as string[],
  trash:
    trash_previous_status === null
      ? null
      : { previousStatus: trash_previous_status, trashedAt: trash_trashed_at ?? '', originalSlug: trash_original_slug ?? '' },
});

type Db = Kysely<PublishingTables>;

/*
 * The queries of reading, trashing and restoring a post, built and compiled
 * once (see `prepared`): Kysely building them again on every call cost a
 * third of a restore's CPU. Queries whose shape depends on the request stay
 * built per call in the store's methods.
 */
const queries = {
  siteById: prepared((db: Db, p: { id: number }) => db.selectFrom('sites').selectAll().where('id', '=', p.id)),
  siteByAddress: prepared((db: Db, p: { domain: string; path: string }) =>
    db.selectFrom('sites').selectAll().where('domain', '=', p.domain).where('path', '=', p.path),
  ),
  post: prepared((db: Db, p: { siteId: number; postId: number }) =>
    db
      .selectFrom('posts')
      .leftJoin('trash_meta', 'trash_meta.post_id', 'posts.id')
      .selectAll('posts')
      .select([
        'trash_meta.previous_status as trash_previous_status',
        'trash_meta.trashed_at as trash_trashed_at',
        'trash_meta.original_slug as trash_original_slug',
      ])
      .where('posts.id', '=', p.postId)
      .where('posts.site_id', '=', p.siteId),
  ),
  capabilities: prepared((db: Db, p: { siteId: number; userId: number }) =>
    db
      .selectFrom('site_roles')
      .innerJoin('role_capabilities', 'role_capabilities.role', 'site_roles.role')
      .select('role_capabilities.capability')
      .where('site_roles.site_id', '=', p.siteId)
      .where('site_roles.user_id', '=', p.userId),
  ),
  user: prepared((db: Db, p: { id: number }) => db.selectFrom('users').selectAll('users').select(primarySite).where('users.id', '=', p.id)),
  parent: prepared((db: Db, p: { siteId: number; id: number }) =>
    db.selectFrom('posts').select(['id', 'type', 'title', 'slug', 'parent_id']).where('id', '=', p.id).where('site_id', '=', p.siteId),
  ),
  terms: prepared((db: Db, p: { postId: number }) =>
    db
      .selectFrom('post_terms')
      .innerJoin('terms', 'terms.id', 'post_terms.term_id')
      .select((eb) => [
        'terms.id',
        'terms.taxonomy',
        'terms.name',
        'terms.slug',
        'terms.description',
        'terms.parent_id',
        eb
          .selectFrom('post_terms as counted')
          .innerJoin('posts', 'posts.id', 'counted.post_id')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('counted.term_id', '=', 'terms.id')
          .where('posts.status', '=', 'publish')
          .as('post_count'),
      ])
      .where('post_terms.post_id', '=', p.postId),
  ),
  recentAttachments: prepared((db: Db, p: { postId: number; limit: number }) =>
    db.selectFrom('attachments').selectAll().where('post_id', '=', p.postId).orderBy('date', 'desc').orderBy('id', 'desc').limit(p.limit),
  ),
  // One round trip for every count; count(*) is a string on PostgreSQL, hence Number() where read.
  counts: prepared((db: Db, p: { postId: number; siteId: number; viewerId: number }) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('attachments').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).as('attachments'),
      eb.selectFrom('likes').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).as('likes'),
      eb.selectFrom('likes').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).where('user_id', '=', p.viewerId).as('viewer_likes'),
      eb.selectFrom('comments').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).where('status', '=', 'approved').as('comments'),
      eb
        .selectFrom('site_followers')
        .select(eb.fn.countAll().as('n'))
        .where('site_id', '=', p.siteId)
        .where('user_id', '=', p.viewerId)
        .as('viewer_follows'),
    ]),
  ),
  metadata: prepared((db: Db, p: { postId: number }) => db.selectFrom('post_meta').selectAll().where('post_id', '=', p.postId).orderBy('id')),
  statusAndSlug: prepared((db: Db, p: { postId: number }) => db.selectFrom('posts').select(['status', 'slug']).where('id', '=', p.postId)),
  moveToTrash: prepared((db: Db, p: { postId: number; slug: string; modified: string; status: string }) =>
    db.updateTable('posts').set({ status: 'trash', slug: p.slug, modified: p.modified }).where('id', '=', p.postId).where('status', '=', p.status),
  ),
  forgetTrash: prepared((db: Db, p: { postId: number }) => db.deleteFrom('trash_meta').where('post_id', '=', p.postId)),
  rememberTrash: prepared((db: Db, p: { postId: number; previousStatus: string; trashedAt: string; originalSlug: string }) =>
    db.insertInto('trash_meta').values({ post_id: p.postId, previous_status: p.previousStatus, trashed_at: p.trashedAt, original_slug: p.originalSlug }),
  ),
  trashComments: prepared((db: Db, p: { postId: number }) =>
    db
      .updateTable('comments')
      .set((eb) => ({ status_before_trash: eb.ref('status'), status: 'post-trashed' }))
      .where('post_id', '=', p.postId)
      .where('status', '!=', 'post-trashed'),
  ),
  trashedPost: prepared((db: Db, p: { postId: number }) =>
    db
      .selectFrom('posts')
      .leftJoin('trash_meta', 'trash_meta.post_id', 'posts.id')
      .select(['posts.site_id', 'posts.type', 'posts.parent_id', 'posts.status', 'posts.slug', 'trash_meta.previous_status', 'trash_meta.original_slug'])
      .where('posts.id', '=', p.postId),
  ),
  holdSite: prepared((db: Db, p: { siteId: number }) => db.updateTable('sites').set((eb) => ({ name: eb.ref('name') })).where('id', '=', p.siteId)),
  takeOutOfTrash: prepared((db: Db, p: { postId: number; status: string; slug: string; modified: string }) =>
    db.updateTable('posts').set({ status: p.status, slug: p.slug, modified: p.modified }).where('id', '=', p.postId).where('status', '=', 'trash'),
  ),
  restoreComments: prepared((db: Db, p: { postId: number }) =>
    db
      .updateTable('comments')
      .set((eb) => ({ status: eb.fn.coalesce('status_before_trash', eb.val('unapproved')), status_before_trash: null }))
      .where('post_id', '=', p.postId)
      .where('status', '=', 'post-trashed'),
  ),
  /** Whether another post of the site and type (not a page) holds a slug. */
  slugTaken: prepared((db: Db, p: { siteId: number; type: string; postId: number; slug: string }) =>
    db.selectFrom('posts').select('slug').where('site_id', '=', p.siteId).where('type', '=', p.type).where('id', '!=', p.postId).where('slug', '=', p.slug).limit(1),
  ),
  tokenOwner: prepared((db: Db, p: { tokenHash: string }) =>
    db.selectFrom('access_tokens').select('user_id').where('token_hash', '=', p.tokenHash).where('revoked_at', 'is', null),
  ),
};

/** The publishing store on Kysely: the same queries on SQLite and PostgreSQL. */
export class KyselyPublishingStore implements PublishingStore {
  /** SQLite: a write transaction (`begin immediate`) already excludes every other writer, so no row needs holding. */
  private readonly writersTakeTurns: boolean;

  constructor(private readonly db: Kysely<PublishingTables>) {
    this.writersTakeTurns = db.getExecutor().adapter instanceof SqliteAdapter;
  }

  async findSite(ref: SiteRef): Promise<SiteRecord | undefined> {
    if (ref.kind === 'id' && !isStorableId(ref.id)) return undefined;
    const row =
      ref.kind === 'id'
        ? await queries.siteById.executeTakeFirst(this.db, { id: ref.id })
        : await queries.siteByAddress.executeTakeFirst(this.db, { domain: ref.domain, path: ref.path });
    return row && { ...camelCased(row), isPrivate: row.is_private === 1, extraPostTypes: JSON.parse(row.extra_post_types) as string[] };
  }

  async findPost(siteId: number, postId: number): Promise<PostRecord | undefined> {
    if (!isStorableId(postId)) return undefined;
    const row = await queries.post.executeTakeFirst(this.db, { siteId, postId });
    return row && toPost(row);
  }

  async capabilitiesOf(siteId: number, userId: number): Promise<ReadonlySet<string>> {
    const rows = await queries.capabilities.execute(this.db, { siteId, userId });
    return new Set(rows.map((row) => row.capability));
  }

  async postRelations(post: PostRecord, request: RelationsRequest): Promise<PostRelations> {
    const db = this.db;
    const author =
      post.authorId === null
        ? undefined
        : await queries.user.executeTakeFirst(db, { id: post.authorId });

    const ancestors = await this.ancestorsOf(post);

    const termRows = await queries.terms.execute(db, { postId: post.id });
    // count(*) is a string on PostgreSQL.
    const terms: TermRecord[] = termRows.map((row) => ({ ...camelCased(row), postCount: Number(row.post_count ?? 0) }));

    const recent = await queries.recentAttachments.execute(db, { postId: post.id, limit: request.recentAttachments });
    const all = request.allAttachments
      ? await db.selectFrom('attachments').selectAll().where('post_id', '=', post.id).orderBy('id').execute()
      : [];
    const featured =
      post.featuredMediaId === null
        ? undefined
        : (recent.find((row) => row.id === post.featuredMediaId) ??
          (await db.selectFrom('attachments').selectAll().where('id', '=', post.featuredMediaId).executeTakeFirst()));

    const counts = await queries.counts.executeTakeFirst(db, { postId: post.id, siteId: post.siteId, viewerId: request.viewerId });
    if (!counts) throw new Error('counts query answered no row');

    const metadata = await queries.metadata.execute(db, { postId: post.id });
    const revisions = request.revisions
      ? await db.selectFrom('revisions').select('id').where('post_id', '=', post.id).orderBy('date', 'desc').orderBy('id', 'desc').execute()
      : [];

    return {
      author: author ? toUser(author) : null,
      ancestors,
      terms,
      recentAttachments: recent.map(toAttachment),
      attachmentCount: Number(counts.attachments),
      featuredMedia: featured ? toAttachment(featured) : null,
      allAttachments: all.map(toAttachment),
      metadata: metadata.map((row) => ({ id: row.id, key: row.meta_key, value: JSON.parse(row.meta_value) as unknown })),
      likeCount: Number(counts.likes),
      viewerLikes: Number(counts.viewer_likes) > 0,
      commentCount: Number(counts.comments),
      viewerFollowsSite: Number(counts.viewer_follows) > 0,
      revisionIds: revisions.map((row) => row.id),
    };
  }

  async ancestorsOf(post: Pick<PostRecord, 'siteId' | 'parentId'>): Promise<AncestorRecord[]> {
    const ancestors: AncestorRecord[] = [];
    for (let parentId = post.parentId; parentId !== null && ancestors.length < MAX_ANCESTORS; ) {
      const parent = await queries.parent.executeTakeFirst(this.db, { siteId: post.siteId, id: parentId });
      if (!parent) break;
      ancestors.push({ id: parent.id, type: parent.type, title: parent.title, slug: parent.slug });
      parentId = parent.parent_id;
    }
    return ancestors;
  }

  async trashPost(postId: number, at: Date): Promise<boolean> {
    if (!isStorableId(postId)) return false;
    return this.db.transaction().execute(async (trx) => {
      const post = await queries.statusAndSlug.executeTakeFirst(trx, { postId });
      if (!post || post.status === 'trash') return false;
      // Compare-and-set on the status read above: of concurrent calls, one moves the post.
      const moved = await queries.moveToTrash.executeChanges(trx, { postId, slug: trashedSlug(post.slug), modified: at.toISOString(), status: post.status });
      if (moved !== 1) return false;
      await queries.forgetTrash.executeChanges(trx, { postId });
      await queries.rememberTrash.executeChanges(trx, { postId, previousStatus: post.status, trashedAt: at.toISOString(), originalSlug: post.slug });
      await queries.trashComments.executeChanges(trx, { postId });
      return true;
    });
  }

  /**
   * Restores a trashed post in one transaction. Its slug is the first free
   * one (see `freeSlug`), read while holding the site's row so that
   * concurrent restores on one site take turns; should another writer take
   * that slug first all the same, the database's unique index
   * (`posts_unique_slug`) refuses the write and the restore runs again,
   * finding the next free slug.
   */
  async restorePost(postId: number, at: Date): Promise<RestoredPost | undefined> {
    if (!isStorableId(postId)) return undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.restoreOnce(postId, at);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= MAX_SLUG_ATTEMPTS) throw error;
      }
    }
  }

  private restoreOnce(postId: number, at: Date): Promise<RestoredPost | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const post = await queries.trashedPost.executeTakeFirst(trx, { postId });
      if (!post || post.status !== 'trash') return undefined;
      const status = post.previous_status ?? STATUS_WITHOUT_TRASH_MEMORY;
      const desired = desiredSlugOnRestore(post.slug, post.original_slug ?? undefined);
      let slug = desired;
      if (slugMustBeUnique(status, desired)) {
        // A no-op write on the site's row holds it (PostgreSQL) until the end: restores that need a free
        // slug on one site take turns, so each reads the slugs the one before it committed. SQLite's
        // writers take turns anyway.
        if (!this.writersTakeTurns) await queries.holdSite.executeChanges(trx, { siteId: post.site_id });
        slug = await this.freeSlug(trx, postId, post, desired);
      }
      // The conditional update decides which of concurrent restores makes the transition.
      const modified = at.toISOString();
      const restored = await queries.takeOutOfTrash.executeChanges(trx, { postId, status, slug, modified });
      if (restored !== 1) return undefined;
      await queries.forgetTrash.executeChanges(trx, { postId });
      await queries.restoreComments.executeChanges(trx, { postId });
      return { status, slug, modified };
    });
  }

  async deletePostForGood(postId: number): Promise<boolean> {
    if (!isStorableId(postId)) return false;
    return this.db.transaction().execute(async (trx) => {
      // A conditional no-op update first: it holds the post's row (PostgreSQL) until the end, so a
      // concurrent restore or deletion waits, and only a post still in the trash goes on.
      const held = await trx.updateTable('posts').set({ status: 'trash' }).where('id', '=', postId).where('status', '=', 'trash').executeTakeFirst();
      if (Number(held.numUpdatedRows) !== 1) return false;
      const post = await trx.selectFrom('posts').select(['type', 'parent_id']).where('id', '=', postId).executeTakeFirstOrThrow();
      // Children of the same type and attachments move up one level, as the platform points them.
      await trx.updateTable('posts').set({ parent_id: post.parent_id }).where('parent_id', '=', postId).where('type', '=', post.type).execute();
      await trx.updateTable('attachments').set({ post_id: post.parent_id }).where('post_id', '=', postId).execute();
      for (const table of ['comments', 'post_meta', 'likes', 'revisions', 'post_terms', 'trash_meta'] as const) {
        await trx.deleteFrom(table).where('post_id', '=', postId).execute();
      }
      await trx.deleteFrom('posts').where('id', '=', postId).execute();
      return true;
    });
  }

  uniqueSlugFor(post: Pick<PostRecord, 'id' | 'siteId' | 'type' | 'parentId'>, desired: string): Promise<string> {
    return this.freeSlug(this.db, post.id, { site_id: post.siteId, type: post.type, parent_id: post.parentId }, desired);
  }

  /** The desired slug, or the first free `-N` variant among the site's posts of the type (pages: same parent). */
  private async freeSlug(
    db: Kysely<PublishingTables>,
    postId: number,
    post: { site_id: number; type: string; parent_id: number | null },
    desired: string,
  ): Promise<string> {
    const others = () => {
      const query = db.selectFrom('posts').select('slug').where('site_id', '=', post.site_id).where('type', '=', post.type).where('id', '!=', postId);
      if (post.type !== 'page') return query;
      return post.parent_id === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', post.parent_id);
    };
    // Mostly the slug is free (a trashed post held it under another name): one lookup in the
    // (site, type, slug) index answers that. Only a taken slug reads the numbered ones, as the
    // platform's `wp_unique_post_slug` tries `-2`, `-3`, …; that prefix match scans the site's posts.
    const holder =
      post.type === 'page'
        ? await others().where('slug', '=', desired).limit(1).executeTakeFirst()
        : await queries.slugTaken.executeTakeFirst(db, { siteId: post.site_id, type: post.type, postId, slug: desired });
    if (!holder) return desired;
    const taken = await others().where('slug', 'like', `${desired}-%`).execute();
    return uniqueSlug(desired, new Set([desired, ...taken.map((row) => row.slug)]));
  }

  async siteStats(siteId: number, viewerId: number): Promise<SiteStats> {
    const db = this.db;
    return {
      publishedPosts: await this.count(db.selectFrom('posts').where('site_id', '=', siteId).where('type', '=', 'post').where('status', '=', 'publish')),
      followers: await this.count(db.selectFrom('site_followers').where('site_id', '=', siteId)),
      viewerFollows: await this.exists(db.selectFrom('site_followers').where('site_id', '=', siteId).where('user_id', '=', viewerId)),
    };
  }

  async postLikers(postId: number, limit: number): Promise<{ found: number; users: UserRecord[] }> {
    const found = await this.count(this.db.selectFrom('likes').where('post_id', '=', postId));
    const rows = await this.db
      .selectFrom('likes')
      .innerJoin('users', 'users.id', 'likes.user_id')
      .selectAll('users')
      .select(primarySite)
      .where('likes.post_id', '=', postId)
      .orderBy('likes.date', 'desc')
      .orderBy('users.id')
      .limit(limit)
      .execute();
    return { found, users: rows.map(toUser) };
  }

  likedBy(postId: number, userId: number): Promise<boolean> {
    return this.exists(this.db.selectFrom('likes').where('post_id', '=', postId).where('user_id', '=', userId));
  }

  async approvedComments(postId: number, limit: number): Promise<{ found: number; comments: CommentRecord[] }> {
    const found = await this.count(this.db.selectFrom('comments').where('post_id', '=', postId).where('status', '=', 'approved'));
    const comments = await this.db
      .selectFrom('comments')
      .select(['id', 'parent_id', 'author_id', 'author_name', 'author_email', 'author_url', 'date', 'content'])
      .where('post_id', '=', postId)
      .where('status', '=', 'approved')
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const authorIds = [...new Set(comments.flatMap((row) => (row.author_id === null ? [] : [row.author_id])))];
    const authors = authorIds.length
      ? await this.db.selectFrom('users').selectAll('users').select(primarySite).where('users.id', 'in', authorIds).execute()
      : [];
    const byId = new Map(authors.map((row) => [row.id, toUser(row)]));
    return {
      found,
      comments: comments.map(({ author_id, ...row }) => ({
        ...camelCased(row),
        author: author_id === null ? null : (byId.get(author_id) ?? null),
      })),
    };
  }

  async findUserByLogin(login: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll('users').select(primarySite).where('users.login', '=', login).executeTakeFirst();
    return row && toUser(row);
  }

  async createAccessToken(token: { id: string; tokenHash: string; userId: number; createdAt: Date }): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({ id: token.id, token_hash: token.tokenHash, user_id: token.userId, created_at: token.createdAt.toISOString(), revoked_at: null })
      .execute();
  }

  async tokenOwner(tokenHash: string): Promise<number | undefined> {
    const row = await queries.tokenOwner.executeTakeFirst(this.db, { tokenHash });
    return row?.user_id;
  }

  async revokeAccessTokens(selector: TokenSelector, at: Date): Promise<number> {
    let query = this.db.updateTable('access_tokens').set({ revoked_at: at.toISOString() }).where('revoked_at', 'is', null);
    if ('tokenHash' in selector) query = query.where('token_hash', '=', selector.tokenHash);
    else if ('id' in selector) query = query.where('id', '=', selector.id);
    else query = query.where('user_id', '=', selector.userId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async listAccessTokens(userId?: number): Promise<AccessTokenRecord[]> {
    let query = this.db
      .selectFrom('access_tokens')
      .innerJoin('users', 'users.id', 'access_tokens.user_id')
      .select(['access_tokens.id', 'access_tokens.user_id', 'users.login', 'access_tokens.created_at', 'access_tokens.revoked_at'])
      .orderBy('access_tokens.created_at')
      .orderBy('access_tokens.id');
    if (userId !== undefined) query = query.where('access_tokens.user_id', '=', userId);
    const rows = await query.execute();
    return rows.map(camelCased);
  }

  /** `count(*)` of a query's rows, as a number on every backend (PostgreSQL answers a string). */
  private async count<TB extends keyof PublishingTables>(query: SelectQueryBuilder<PublishingTables, TB, object>): Promise<number> {
    const row = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether a query has any row. */
  private async exists<TB extends keyof PublishingTables>(query: SelectQueryBuilder<PublishingTables, TB, object>): Promise<boolean> {
    const row = await query.select((eb) => eb.lit(1).as('one')).limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
