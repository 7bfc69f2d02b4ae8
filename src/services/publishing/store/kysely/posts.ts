import type { Selectable, SelectQueryBuilder } from 'kysely';
import { camelCased } from '../columns.js';
import { prepared } from '../../../../platform/store/prepared.js';
import type { AncestorRecord, AttachmentRecord, PostRecord, TermRecord } from '../../domain/records.js';
import type { PublishingPosts, RelationPart } from '../../domain/publishingStore.js';
import type { AttachmentsTable, PostsTable, PublishingTables } from '../tables.js';
import { isStorableId, type Db } from './db.js';
import { ANCESTOR_COLUMNS, pageRelations, toAncestor } from './pageRelations.js';
import { termColumns } from './terms.js';
import { primarySite, toUser } from './userRow.js';

/** How far up a page hierarchy permalinks look. */
const MAX_ANCESTORS = 16;

const toAttachment = ({ site_id: _siteId, ...row }: Selectable<AttachmentsTable>): AttachmentRecord => camelCased(row);

/** A query of posts with every column of the post and its trash memory left-joined (all null when the post was not trashed): a `PostRow`. */
export function withTrashMemory<O>(query: SelectQueryBuilder<PublishingTables, 'posts', O>) {
  return query
    .leftJoin('trash_meta', 'trash_meta.post_id', 'posts.id')
    .selectAll('posts')
    .select([
      'trash_meta.previous_status as trash_previous_status',
      'trash_meta.trashed_at as trash_trashed_at',
      'trash_meta.original_slug as trash_original_slug',
    ]);
}

/** A post row with its trash memory left-joined (all null when the post was not trashed). */
export type PostRow = Selectable<PostsTable> & {
  trash_previous_status: string | null;
  trash_trashed_at: string | null;
  trash_original_slug: string | null;
};

export const toPost = ({
  trash_previous_status,
  trash_trashed_at,
  trash_original_slug,
  ...row
}: PostRow): PostRecord => ({
  ...camelCased(row),
  sticky: row.sticky === 1,
  likesEnabled: row.likes_enabled === 1,
  sharingEnabled: row.sharing_enabled === 1,
  publicizeUrls: JSON.parse(row.publicize_urls) as string[],
  htmlUnchecked: row.html_unchecked === 1,
  trash:
    trash_previous_status === null
      ? null
      : {
          previousStatus: trash_previous_status,
          trashedAt: trash_trashed_at ?? '',
          originalSlug: trash_original_slug ?? '',
        },
});

/* The queries of reading a post, built and compiled once (see `prepared`): they run on every post request.
 * Queries whose shape depends on the request stay built per call. */
const queries = {
  post: prepared((db: Db, p: { siteId: number; postId: number }) =>
    db
      .selectFrom('posts')
      .$call(withTrashMemory)
      .where('posts.id', '=', p.postId)
      .where('posts.site_id', '=', p.siteId),
  ),
  user: prepared((db: Db, p: { id: number }) =>
    db.selectFrom('users').selectAll('users').select(primarySite).where('users.id', '=', p.id),
  ),
  parent: prepared((db: Db, p: { siteId: number; id: number }) =>
    db.selectFrom('posts').select(ANCESTOR_COLUMNS).where('id', '=', p.id).where('site_id', '=', p.siteId),
  ),
  terms: prepared((db: Db, p: { postId: number }) =>
    db
      .selectFrom('post_terms')
      .innerJoin('terms', 'terms.id', 'post_terms.term_id')
      .select(termColumns)
      .where('post_terms.post_id', '=', p.postId),
  ),
  recentAttachments: prepared((db: Db, p: { postId: number; limit: number }) =>
    db
      .selectFrom('attachments')
      .selectAll()
      .where('post_id', '=', p.postId)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
  // One round trip for every count; count(*) is a string on PostgreSQL, hence Number() where read.
  counts: prepared((db: Db, p: { postId: number; siteId: number; viewerId: number }) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('attachments').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).as('attachments'),
      eb.selectFrom('likes').select(eb.fn.countAll().as('n')).where('post_id', '=', p.postId).as('likes'),
      eb
        .selectFrom('likes')
        .select(eb.fn.countAll().as('n'))
        .where('post_id', '=', p.postId)
        .where('user_id', '=', p.viewerId)
        .as('viewer_likes'),
      eb
        .selectFrom('comments')
        .select(eb.fn.countAll().as('n'))
        .where('post_id', '=', p.postId)
        .where('status', '=', 'approved')
        .as('comments'),
      eb
        .selectFrom('site_followers')
        .select(eb.fn.countAll().as('n'))
        .where('site_id', '=', p.siteId)
        .where('user_id', '=', p.viewerId)
        .as('viewer_follows'),
    ]),
  ),
  metadata: prepared((db: Db, p: { postId: number }) =>
    db.selectFrom('post_meta').selectAll().where('post_id', '=', p.postId).orderBy('id'),
  ),
};

/** Posts as read on a Kysely database (SQLite or PostgreSQL), with what the post object shows around them. */
export function kyselyPublishingPosts(db: Db): PublishingPosts {
  async function ancestorsOf(post: Pick<PostRecord, 'siteId' | 'parentId'>): Promise<AncestorRecord[]> {
    const ancestors: AncestorRecord[] = [];
    for (let parentId = post.parentId; parentId !== null && ancestors.length < MAX_ANCESTORS; ) {
      const parent = await queries.parent.executeTakeFirst(db, { siteId: post.siteId, id: parentId });
      if (!parent) break;
      ancestors.push(toAncestor(parent));
      parentId = parent.parent_id;
    }
    return ancestors;
  }

  return {
    async findPost(siteId, postId) {
      if (!isStorableId(postId)) return undefined;
      const row = await queries.post.executeTakeFirst(db, { siteId, postId });
      return row && toPost(row);
    },

    async findPublishedPostBySlug(siteId, slug, types) {
      const row = await db
        .selectFrom('posts')
        .$call(withTrashMemory)
        .where('posts.site_id', '=', siteId)
        .where('posts.type', 'in', types)
        .where('posts.slug', '=', slug)
        .where('posts.status', '=', 'publish')
        .orderBy('posts.date', 'desc')
        .orderBy('posts.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toPost(row);
    },

    async postRelations(post, request) {
      // The parts asked for; each other part is not read (`RelationsRequest.parts`).
      const wants = (part: RelationPart) => !request.parts || request.parts.has(part);
      const author =
        post.authorId === null || !wants('author')
          ? undefined
          : await queries.user.executeTakeFirst(db, { id: post.authorId });

      const ancestors = wants('ancestors') ? await ancestorsOf(post) : [];

      const termRows = wants('terms') ? await queries.terms.execute(db, { postId: post.id }) : [];
      // count(*) is a string on PostgreSQL.
      const terms: TermRecord[] = termRows.map((row) => ({
        ...camelCased(row),
        postCount: Number(row.post_count ?? 0),
      }));

      const recent = wants('recentAttachments')
        ? await queries.recentAttachments.execute(db, { postId: post.id, limit: request.recentAttachments })
        : [];
      const all = request.allAttachments
        ? await db.selectFrom('attachments').selectAll().where('post_id', '=', post.id).orderBy('id').execute()
        : [];
      const featured =
        post.featuredMediaId === null || !wants('featuredMedia')
          ? undefined
          : (recent.find((row) => row.id === post.featuredMediaId) ??
            (await db
              .selectFrom('attachments')
              .selectAll()
              .where('id', '=', post.featuredMediaId)
              // Only an attachment of the post's own site (a stored ID of another site's shows nothing).
              .where('site_id', '=', post.siteId)
              .executeTakeFirst()));

      const counts = wants('counts')
        ? await queries.counts.executeTakeFirst(db, {
            postId: post.id,
            siteId: post.siteId,
            viewerId: request.viewerId,
          })
        : { attachments: 0, likes: 0, comments: 0, viewer_likes: 0, viewer_follows: 0 };
      if (!counts) throw new Error('counts query answered no row');

      const metadata = wants('metadata') ? await queries.metadata.execute(db, { postId: post.id }) : [];
      const revisions = request.revisions
        ? await db
            .selectFrom('revisions')
            .select('id')
            .where('post_id', '=', post.id)
            .orderBy('date', 'desc')
            .orderBy('id', 'desc')
            .execute()
        : [];

      return {
        author: author ? toUser(author) : null,
        ancestors,
        terms,
        recentAttachments: recent.map(toAttachment),
        attachmentCount: Number(counts.attachments),
        featuredMedia: featured ? toAttachment(featured) : null,
        allAttachments: all.map(toAttachment),
        metadata: metadata.map((row) => ({
          id: row.id,
          key: row.meta_key,
          value: JSON.parse(row.meta_value) as unknown,
        })),
        likeCount: Number(counts.likes),
        viewerLikes: Number(counts.viewer_likes) > 0,
        commentCount: Number(counts.comments),
        viewerFollowsSite: Number(counts.viewer_follows) > 0,
        revisionIds: revisions.map((row) => row.id),
      };
    },

    pageRelations: (posts, request) => pageRelations(db, posts, request),

    ancestorsOf,
  };
}
