import type { ExpressionBuilder, Selectable } from 'kysely';
import { camelCased } from '../columns.js';
import type { UserRecord } from '../../domain/records.js';
import type { PublishingTables, UsersTable } from '../tables.js';

/** A user row with the user's primary site (see `primarySite`). */
type UserRow = Selectable<UsersTable> & { primary_site_id: number | null };

/** The user's primary site: the lowest site ID they have a role on (the platform's first blog of the user). */
export const primarySite = (eb: ExpressionBuilder<PublishingTables, 'users'>) =>
  eb
    .selectFrom('site_roles')
    .select((inner) => inner.fn.min<number>('site_roles.site_id').as('site_id'))
    .whereRef('site_roles.user_id', '=', 'users.id')
    .as('primary_site_id');

export const toUser = (row: UserRow): UserRecord => ({
  ...camelCased(row),
  // min() comes back as a string from some drivers.
  primarySiteId: row.primary_site_id === null ? null : Number(row.primary_site_id),
});
