import { camelCased } from '../columns.js';
import { prepared } from '../../../../platform/store/prepared.js';
import type { PublishingSites } from '../../domain/publishingStore.js';
import { count, exists, isStorableId, type Db } from './db.js';

/** The site and the caller's capabilities on it, read by post requests when not remembered (`cachedSites.ts`): built once (see `prepared`). */
const queries = {
  siteById: prepared((db: Db, p: { id: number }) => db.selectFrom('sites').selectAll().where('id', '=', p.id)),
  siteByAddress: prepared((db: Db, p: { domain: string; path: string }) =>
    db.selectFrom('sites').selectAll().where('domain', '=', p.domain).where('path', '=', p.path),
  ),
  capabilities: prepared((db: Db, p: { siteId: number; userId: number }) =>
    db
      .selectFrom('site_roles')
      .innerJoin('role_capabilities', 'role_capabilities.role', 'site_roles.role')
      .select('role_capabilities.capability')
      .where('site_roles.site_id', '=', p.siteId)
      .where('site_roles.user_id', '=', p.userId),
  ),
};

/** Sites on a Kysely database (SQLite or PostgreSQL): found by ID or address, roles, and counts. */
export function kyselyPublishingSites(db: Db): PublishingSites {
  return {
    async findSite(ref) {
      if (ref.kind === 'id' && !isStorableId(ref.id)) return undefined;
      const row =
        ref.kind === 'id'
          ? await queries.siteById.executeTakeFirst(db, { id: ref.id })
          : await queries.siteByAddress.executeTakeFirst(db, { domain: ref.domain, path: ref.path });
      return (
        row && {
          ...camelCased(row),
          isPrivate: row.is_private === 1,
          extraPostTypes: JSON.parse(row.extra_post_types) as string[],
        }
      );
    },

    async capabilitiesOf(siteId, userId) {
      const rows = await queries.capabilities.execute(db, { siteId, userId });
      return new Set(rows.map((row) => row.capability));
    },

    async siteStats(siteId, viewerId) {
      return {
        publishedPosts: await count(
          db
            .selectFrom('posts')
            .where('site_id', '=', siteId)
            .where('type', '=', 'post')
            .where('status', '=', 'publish'),
        ),
        followers: await count(db.selectFrom('site_followers').where('site_id', '=', siteId)),
        viewerFollows: await exists(
          db.selectFrom('site_followers').where('site_id', '=', siteId).where('user_id', '=', viewerId),
        ),
      };
    },
  };
}
