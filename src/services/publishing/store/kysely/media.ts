import type { Selectable } from 'kysely';
import {
  NoSuchMediaParent,
  OverMediaQuota,
  type MediaAttributes,
  type MediaFileRecord,
  type MediaRecord,
  type PublishingMedia,
} from '../../domain/media.js';
import { atomically, retryingTaken } from '../transactions.js';
import type { AttachmentsTable, MediaFilesTable } from '../tables.js';
import { isStorableId, nextFreeId, takeTurns, type Db } from './db.js';

/** How many times an upload's row is written again when a concurrent one took the ID it chose. */
const MAX_ATTEMPTS = 20;

const mediaRecord = (row: Selectable<AttachmentsTable>): MediaRecord => ({
  id: row.id,
  siteId: row.site_id,
  postId: row.post_id,
  authorId: row.author_id,
  date: row.date,
  url: row.url,
  guid: row.guid,
  file: row.file,
  mimeType: row.mime_type,
  title: row.title,
  caption: row.caption,
  description: row.description,
  alt: row.alt,
  width: row.width,
  height: row.height,
  storageKey: row.storage_key,
  bytes: Number(row.bytes),
  modified: row.modified ?? row.date,
});

const fileRecord = (row: Selectable<MediaFilesTable>): MediaFileRecord => ({
  key: row.key,
  siteId: row.site_id,
  mediaId: row.media_id,
  file: row.file,
  mimeType: row.mime_type,
  bytes: Number(row.bytes),
  width: row.width,
  height: row.height,
  created: row.created,
});

/**
 * The post an item is to be attached to, checked in the write's transaction:
 * a post of the item's site, or the write throws `NoSuchMediaParent` and
 * writes nothing. Every write that sets a parent passes here, whatever path
 * it came by (the upload's `attrs`, an update, an edit, a post's media).
 */
async function parentInSite(db: Db, siteId: number, postId: number | null | undefined): Promise<void> {
  if (postId === undefined || postId === null) return;
  const found =
    isStorableId(postId) &&
    (await db
      .selectFrom('posts')
      .select('id')
      .where('id', '=', postId)
      .where('site_id', '=', siteId)
      .executeTakeFirst());
  if (!found) throw new NoSuchMediaParent(postId);
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const SORT_COLUMN = { date: 'date', title: 'title', ID: 'id' } as const;

/**
 * Refuses (`OverMediaQuota`) a file of `bytes` that would take the site's
 * files past `quotaBytes`. Runs in the write that adds the file, after
 * taking turns on the site's bytes until that write ends: else a crowd of
 * uploads all read the room one of them had, and all fit.
 */
async function withinQuota(trx: Db, siteId: number, bytes: number, quotaBytes: number): Promise<void> {
  await takeTurns(trx, `publishing.mediaBytes:${siteId}`);
  const row = await trx
    .selectFrom('media_files')
    .select((eb) => eb.fn.sum<number | string | null>('bytes').as('total'))
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  const over = Number(row?.total ?? 0) + bytes - quotaBytes;
  if (over > 0) throw new OverMediaQuota(over);
}

/** The media library on a Kysely database (SQLite or PostgreSQL): the `attachments` rows and their files' rows. */
export function kyselyPublishingMedia(db: Db): PublishingMedia {
  return {
    async listMedia(query) {
      // A parent no stored post can be has no items (and would overflow PostgreSQL's integer).
      if (query.postId !== undefined && query.postId !== 0 && !isStorableId(query.postId))
        return { found: 0, items: [] };
      let base = db.selectFrom('attachments').where('site_id', '=', query.siteId);
      if (query.postId !== undefined)
        base = query.postId === 0 ? base.where('post_id', 'is', null) : base.where('post_id', '=', query.postId);
      if (query.mimeType) {
        base = query.mimeType.includes('/')
          ? base.where('mime_type', '=', query.mimeType)
          : base.where('mime_type', 'like', `${likeEscaped(query.mimeType)}/%`);
      }
      if (query.after) base = base.where('date', '>=', query.after);
      if (query.before) base = base.where('date', '<', query.before);
      if (query.search) {
        const pattern = `%${likeEscaped(query.search.toLowerCase())}%`;
        base = base.where((eb) =>
          eb.or(
            (['title', 'caption', 'description', 'file'] as const).map((column) =>
              eb(eb.fn('lower', [column]), 'like', pattern),
            ),
          ),
        );
      }
      const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const column = SORT_COLUMN[query.orderBy];
      const direction = query.order === 'ASC' ? 'asc' : 'desc';
      let page = base.selectAll();
      if (query.from) {
        const { value, id } = query.from;
        const past = query.order === 'ASC' ? '>' : '<';
        page =
          column === 'id'
            ? page.where('id', past, id)
            : page.where((eb) =>
                eb.or([eb(column, past, value), eb.and([eb(column, '=', value), eb('id', past, id)])]),
              );
      }
      const rows = await page
        .orderBy(column, direction)
        .orderBy('id', direction)
        .limit(query.number)
        .offset(query.from ? 0 : query.offset)
        .execute();
      return { found: Number(counted.n), items: rows.map(mediaRecord) };
    },

    async findMedia(siteId, id) {
      if (!isStorableId(id)) return undefined;
      const row = await db
        .selectFrom('attachments')
        .selectAll()
        .where('id', '=', id)
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      return row && mediaRecord(row);
    },

    async mediaFiles(siteId, mediaId) {
      const rows = await db
        .selectFrom('media_files')
        .selectAll()
        .where('site_id', '=', siteId)
        .where('media_id', '=', mediaId)
        .orderBy('created', 'desc')
        .orderBy('key', 'desc')
        .execute();
      return rows.map(fileRecord);
    },

    async findMediaFile(key) {
      const row = await db.selectFrom('media_files').selectAll().where('key', '=', key).executeTakeFirst();
      return row && fileRecord(row);
    },

    insertMedia(media) {
      return retryingTaken(
        db,
        async (trx) => {
          await parentInSite(trx, media.siteId, media.attributes.postId);
          await withinQuota(trx, media.siteId, media.file.bytes, media.quotaBytes);
          const id = await nextFreeId(trx, 'attachments');
          const { file, attributes } = media;
          await trx
            .insertInto('attachments')
            .values({
              id,
              site_id: media.siteId,
              post_id: attributes.postId,
              author_id: media.authorId,
              date: media.date,
              modified: media.date,
              url: media.url,
              guid: media.url,
              file: file.file,
              mime_type: file.mimeType,
              title: attributes.title,
              caption: attributes.caption,
              description: attributes.description,
              alt: attributes.alt,
              width: file.width,
              height: file.height,
              storage_key: file.key,
              bytes: file.bytes,
            })
            .execute();
          await trx
            .insertInto('media_files')
            .values({ ...fileRow(file), site_id: media.siteId, media_id: id })
            .execute();
          return id;
        },
        MAX_ATTEMPTS,
      );
    },

    async updateMedia(siteId, id, attributes, modified) {
      if (!isStorableId(id)) return false;
      return atomically(db, async (trx) => {
        await parentInSite(trx, siteId, attributes.postId);
        const result = await trx
          .updateTable('attachments')
          .set({ ...attributeColumns(attributes), modified })
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      });
    },

    replaceMediaFile(siteId, id, file, url, attributes, modified, quotaBytes) {
      return atomically(db, async (trx) => {
        await parentInSite(trx, siteId, attributes.postId);
        await withinQuota(trx, siteId, file.bytes, quotaBytes);
        const result = await trx
          .updateTable('attachments')
          .set({
            ...attributeColumns(attributes),
            modified,
            url,
            file: file.file,
            mime_type: file.mimeType,
            width: file.width,
            height: file.height,
            storage_key: file.key,
            bytes: file.bytes,
          })
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx
          .insertInto('media_files')
          .values({ ...fileRow(file), site_id: siteId, media_id: id })
          .execute();
        return true;
      });
    },

    deleteMedia(siteId, id) {
      if (!isStorableId(id)) return Promise.resolve([]);
      return atomically(db, async (trx) => {
        const deleted = await trx
          .deleteFrom('attachments')
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return [];
        // A post whose featured image it was has none now (the platform deletes its `_thumbnail_id`).
        await trx
          .updateTable('posts')
          .set({ featured_media_id: null })
          .where('site_id', '=', siteId)
          .where('featured_media_id', '=', id)
          .execute();
        const files = await trx
          .deleteFrom('media_files')
          .where('site_id', '=', siteId)
          .where('media_id', '=', id)
          .returning('key')
          .execute();
        return files.map((file) => file.key);
      });
    },

    async knownMediaFiles(keys) {
      if (keys.length === 0) return new Set();
      const rows = await db.selectFrom('media_files').select('key').where('key', 'in', keys).execute();
      return new Set(rows.map((row) => row.key));
    },
  };
}

const fileRow = (file: Omit<MediaFileRecord, 'mediaId' | 'siteId'>) => ({
  key: file.key,
  file: file.file,
  mime_type: file.mimeType,
  bytes: file.bytes,
  width: file.width,
  height: file.height,
  created: file.created,
});

const attributeColumns = (attributes: MediaAttributes) => ({
  ...(attributes.title !== undefined ? { title: attributes.title } : {}),
  ...(attributes.caption !== undefined ? { caption: attributes.caption } : {}),
  ...(attributes.description !== undefined ? { description: attributes.description } : {}),
  ...(attributes.alt !== undefined ? { alt: attributes.alt } : {}),
  ...(attributes.postId !== undefined ? { post_id: attributes.postId } : {}),
});
