import type { Kysely } from 'kysely';
import type { SiteDirectory } from '../../../platform/module.js';
import type { PublishingTables } from './tables.js';

/** A site's home address, as the platform names it: `https://domain` or `https://domain/path`. */
const homeOf = (site: { domain: string; path: string }) => `https://${site.domain}${site.path ? `/${site.path}` : ''}`;

/**
 * The publishing module's `sites` (`StoreModule`): the sites an account may
 * grant an app, for the accounts' OAuth consent and grants, read from this
 * module's own tables. The account's publishing user is the one linked to it
 * (`users.account_id`).
 */
export function accountSites(db: Kysely<PublishingTables>): SiteDirectory {
  return {
    async ofAccount(accountId) {
      const rows = await db
        .selectFrom('users')
        .innerJoin('site_roles', 'site_roles.user_id', 'users.id')
        .innerJoin('sites', 'sites.id', 'site_roles.site_id')
        .select(['sites.id', 'sites.name', 'sites.domain', 'sites.path', 'site_roles.role'])
        .where('users.account_id', '=', accountId)
        .orderBy('sites.id')
        .execute();
      return rows.map((row) => ({ id: Number(row.id), name: row.name, url: homeOf(row), role: row.role }));
    },
    async byIds(ids) {
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('sites')
        .select(['id', 'name', 'domain', 'path'])
        .where('id', 'in', [...ids])
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: Number(row.id), name: row.name, url: homeOf(row) }));
    },
  };
}
