import { sql, type Compilable, type Selectable } from 'kysely';
import { camelCased } from '../columns.js';
import type { AncestorRecord, AttachmentRecord, PostRecord, PostRelations, TermRecord } from '../../domain/records.js';
import type { PageRelationsRequest, RelationPart } from '../../domain/publishingStore.js';
import type { AttachmentsTable, PostsTable, PublishingTables, UsersTable } from '../tables.js';
import { preparedIn as platformPreparedIn } from '../../../../platform/store/prepared.js';
import type { Db } from './db.js';
import { TERM_COLUMNS } from './terms.js';
import { primarySite, toUser } from './userRow.js';

/** The columns of a post read as an ancestor (with `parent_id`, to climb further). */
export const ANCESTOR_COLUMNS = [
  'id',
  'type',
  'title',
  'slug',
  'parent_id',
  'status',
  'password',
  'author_id',
  'html_unchecked',
] as const;

/** An ancestor from its columns (`ANCESTOR_COLUMNS`). */
export const toAncestor = (row: Pick<Selectable<PostsTable>, (typeof ANCESTOR_COLUMNS)[number]>): AncestorRecord => ({
  id: row.id,
  type: row.type,
  title: row.title,
  slug: row.slug,
  status: row.status,
  password: row.password,
  authorId: row.author_id,
  htmlUnchecked: row.html_unchecked === 1,
});

/** How far up a page hierarchy permalinks look (as `ancestorsOf`). */
const MAX_ANCESTORS = 16;

const toAttachment = ({ site_id: _siteId, ...row }: Selectable<AttachmentsTable>): AttachmentRecord => camelCased(row);

/** Rows grouped by a key, each group in the rows' order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

const distinct = (ids: Iterable<number | null>): number[] => [
  ...new Set([...ids].filter((id): id is number => id !== null)),
];

/** `preparedIn` of IDs on the publishing tables, the query's other values numbers too. */
const preparedIn = <Row>(build: (db: Db, ids: number[], p: Record<string, number>) => Compilable<Row>) =>
  platformPreparedIn<PublishingTables, Row>((db, ids, p) => build(db, ids, p as Record<string, number>));

/* The queries of a page's relations, each prepared per size of its `in` list. */
/** Each post's attachments, likes and approved comments, counted. */
const postCounts = (db: Db, ids: number[]) =>
  db
    .selectFrom('posts')
    .select((eb) => [
      'posts.id',
      eb
        .selectFrom('attachments')
        .select(eb.fn.countAll().as('n'))
        .whereRef('attachments.post_id', '=', 'posts.id')
        .as('attachments'),
      eb.selectFrom('likes').select(eb.fn.countAll().as('n')).whereRef('likes.post_id', '=', 'posts.id').as('likes'),
      eb
        .selectFrom('comments')
        .select(eb.fn.countAll().as('n'))
        .whereRef('comments.post_id', '=', 'posts.id')
        .where('comments.status', '=', 'approved')
        .as('comments'),
    ])
    .where('posts.id', 'in', ids);

/** The row when it is of the post's own site (a stored ID of another site's attachment shows nothing). */
const ownSite = <Row extends { site_id: number }>(row: Row | undefined, post: PostRecord): Row | undefined =>
  row?.site_id === post.siteId ? row : undefined;

const queries = {
  users: preparedIn((db, ids) =>
    db.selectFrom('users').selectAll('users').select(primarySite).where('users.id', 'in', ids),
  ),
  parents: preparedIn((db, ids) =>
    db.selectFrom('posts').select(ANCESTOR_COLUMNS).select('site_id').where('id', 'in', ids),
  ),
  terms: preparedIn((db, ids) =>
    db
      .selectFrom('post_terms')
      .innerJoin('terms', 'terms.id', 'post_terms.term_id')
      .select(['post_terms.post_id', ...TERM_COLUMNS])
      .where('post_terms.post_id', 'in', ids)
      .orderBy('post_terms.post_id')
      .orderBy('post_terms.term_id'),
  ),
  // Each term's published posts (count(*) is a string on PostgreSQL).
  termCounts: preparedIn((db, ids) =>
    db
      .selectFrom('post_terms')
      .innerJoin('posts', 'posts.id', 'post_terms.post_id')
      .select((eb) => ['post_terms.term_id', eb.fn.countAll().as('n')])
      .where('post_terms.term_id', 'in', ids)
      .where('posts.status', '=', 'publish')
      .groupBy('post_terms.term_id'),
  ),
  // The most recent attachments of each post, at most `limit` each.
  recentAttachments: preparedIn((db, ids, p) =>
    db
      .selectFrom(
        db
          .selectFrom('attachments')
          .selectAll()
          .select(sql<number>`row_number() over (partition by post_id order by date desc, id desc)`.as('rank'))
          .where('post_id', 'in', ids)
          .as('ranked'),
      )
      .selectAll()
      .where('rank', '<=', p.limit!)
      .orderBy('post_id')
      .orderBy('date', 'desc')
      .orderBy('id', 'desc'),
  ),
  allAttachments: preparedIn((db, ids) =>
    db.selectFrom('attachments').selectAll().where('post_id', 'in', ids).orderBy('post_id').orderBy('id'),
  ),
  attachments: preparedIn((db, ids) => db.selectFrom('attachments').selectAll().where('id', 'in', ids)),
  // One row of counts per post (count(*) is a string on PostgreSQL, hence Number() where read), with the viewer's like and follow.
  counts: preparedIn((db, ids, p) =>
    postCounts(db, ids).select((eb) => [
      eb
        .selectFrom('likes')
        .select(eb.fn.countAll().as('n'))
        .whereRef('likes.post_id', '=', 'posts.id')
        .where('likes.user_id', '=', p.viewerId!)
        .as('viewer_likes'),
      eb
        .selectFrom('site_followers')
        .select(eb.fn.countAll().as('n'))
        .whereRef('site_followers.site_id', '=', 'posts.site_id')
        .where('site_followers.user_id', '=', p.viewerId!)
        .as('viewer_follows'),
    ]),
  ),
  // The same counts for a caller without a token (viewer 0, no user): they like nothing and follow nothing.
  anonymousCounts: preparedIn((db, ids) => postCounts(db, ids)),
  metadata: preparedIn((db, ids) =>
    db.selectFrom('post_meta').selectAll().where('post_id', 'in', ids).orderBy('post_id').orderBy('id'),
  ),
  revisions: preparedIn((db, ids) =>
    db
      .selectFrom('revisions')
      .select(['id', 'post_id'])
      .where('post_id', 'in', ids)
      .orderBy('post_id')
      .orderBy('date', 'desc')
      .orderBy('id', 'desc'),
  ),
};

/**
 * What `postRelations` reads for one post, read for a page of posts at once:
 * one statement per kind of row (authors, each level of ancestors, terms and
 * their counts, recent attachments, featured images, counts, metadata, and
 * revisions or every attachment when asked for), whatever the number of
 * posts, and none for a part not asked for (`parts`). Each post's relations
 * are those `postRelations` answers for it.
 */
export async function pageRelations(
  db: Db,
  posts: readonly PostRecord[],
  request: PageRelationsRequest,
): Promise<PostRelations[]> {
  if (!posts.length) return [];
  const ids = posts.map((post) => post.id);
  // The parts asked for; each other part is not read (`RelationsRequest.parts`).
  const wants = (part: RelationPart) => !request.parts || request.parts.has(part);

  const authorIds = wants('author') ? distinct(posts.map((post) => post.authorId)) : [];
  const authors = new Map<number, Selectable<UsersTable> & { primary_site_id: number | null }>();
  for (const row of await queries.users(db, authorIds)) authors.set(row.id, row);

  // Ancestors, a level at a time: the parents of every post still climbing, in one statement.
  const ancestors = new Map<number, AncestorRecord[]>(posts.map((post) => [post.id, []]));
  const climbing = new Map<number, number | null>(
    posts.map((post) => [post.id, wants('ancestors') ? post.parentId : null]),
  );
  for (let level = 0; level < MAX_ANCESTORS; level++) {
    const wanted = distinct([...climbing.values()]);
    if (!wanted.length) break;
    const rows = await queries.parents(db, wanted);
    const found = new Map(rows.map((row) => [row.id, row]));
    for (const post of posts) {
      const parentId = climbing.get(post.id);
      if (parentId === null || parentId === undefined) continue;
      const parent = found.get(parentId);
      // On the post's own site only, as `ancestorsOf` reads them.
      if (!parent || parent.site_id !== post.siteId) {
        climbing.set(post.id, null);
        continue;
      }
      ancestors.get(post.id)!.push(toAncestor(parent));
      climbing.set(post.id, parent.parent_id);
    }
  }

  const termRows = wants('terms') ? await queries.terms(db, ids) : [];
  // Each term's published posts, counted once for the page.
  const termCounts = new Map<number, number>();
  for (const row of await queries.termCounts(db, distinct(termRows.map((row) => row.id))))
    termCounts.set(row.term_id, Number(row.n));
  const terms = groupBy(
    termRows.map(({ post_id, ...row }): TermRecord & { postId: number } => ({
      ...camelCased(row),
      postCount: termCounts.get(row.id) ?? 0,
      postId: post_id,
    })),
    (row) => row.postId,
  );

  const recentRows = wants('recentAttachments')
    ? await queries.recentAttachments(db, ids, { limit: request.recentAttachments })
    : [];
  const recent = groupBy(
    recentRows.map(({ rank: _rank, ...row }) => row as Selectable<AttachmentsTable>),
    (row) => row.post_id!,
  );

  const galleryIds = posts.filter((post) => request.allAttachments(post)).map((post) => post.id);
  const all = groupBy(await queries.allAttachments(db, galleryIds), (row) => row.post_id!);

  const featuredMissing = distinct(
    posts.map((post) =>
      wants('featuredMedia') &&
      post.featuredMediaId !== null &&
      !recent.get(post.id)?.some((row) => row.id === post.featuredMediaId)
        ? post.featuredMediaId
        : null,
    ),
  );
  const featuredRows = new Map<number, Selectable<AttachmentsTable>>();
  for (const row of await queries.attachments(db, featuredMissing)) featuredRows.set(row.id, row);

  const countRows: {
    id: number;
    attachments: unknown;
    likes: unknown;
    comments: unknown;
    viewer_likes?: unknown;
    viewer_follows?: unknown;
  }[] = !wants('counts')
    ? []
    : request.viewerId === 0
      ? await queries.anonymousCounts(db, ids)
      : await queries.counts(db, ids, { viewerId: request.viewerId });
  const counts = new Map(countRows.map((row) => [row.id, row]));

  const metadata = groupBy(wants('metadata') ? await queries.metadata(db, ids) : [], (row) => row.post_id);
  const revisions = groupBy(request.revisions ? await queries.revisions(db, ids) : [], (row) => row.post_id);

  return posts.map((post) => {
    const author = post.authorId === null ? undefined : authors.get(post.authorId);
    const recentOfPost = recent.get(post.id) ?? [];
    const featured =
      post.featuredMediaId === null || !wants('featuredMedia')
        ? undefined
        : (recentOfPost.find((row) => row.id === post.featuredMediaId) ??
          ownSite(featuredRows.get(post.featuredMediaId), post));
    const count = counts.get(post.id);
    return {
      author: author ? toUser(author) : null,
      ancestors: ancestors.get(post.id)!,
      terms: (terms.get(post.id) ?? []).map(({ postId: _postId, ...term }) => term),
      recentAttachments: recentOfPost.map(toAttachment),
      attachmentCount: Number(count?.attachments ?? 0),
      featuredMedia: featured ? toAttachment(featured) : null,
      allAttachments: (all.get(post.id) ?? []).map(toAttachment),
      metadata: (metadata.get(post.id) ?? []).map((row) => ({
        id: row.id,
        key: row.meta_key,
        value: JSON.parse(row.meta_value) as unknown,
      })),
      likeCount: Number(count?.likes ?? 0),
      viewerLikes: Number(count?.viewer_likes ?? 0) > 0,
      commentCount: Number(count?.comments ?? 0),
      viewerFollowsSite: Number(count?.viewer_follows ?? 0) > 0,
      revisionIds: (revisions.get(post.id) ?? []).map((row) => row.id),
    };
  });
}
