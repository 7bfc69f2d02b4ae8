import type { Kysely } from 'kysely';
import { atomically } from './transactions.js';
import type { PublishingDatabase } from './tables.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import { kyselyPostComments } from './kysely/comments.js';
import { kyselyPostLikes } from './kysely/likes.js';
import { kyselyPostFieldWrites } from './kysely/postFields.js';
import { kyselyPostLists } from './kysely/postLists.js';
import { kyselyPublishingPosts } from './kysely/posts.js';
import { kyselyPublishingSites } from './kysely/sites.js';
import { kyselyPostTrash } from './kysely/trash.js';
import { kyselyPostWrites } from './kysely/writes.js';
import { kyselyPublishingUsers } from './kysely/users.js';
import { kyselyPublishingTerms } from './kysely/terms.js';
import { kyselyPostAutosaves } from './kysely/autosaves.js';
import { kyselyPublishingMedia } from './kysely/media.js';
import type { ChangeMark } from '../../../platform/store/database.js';
import { keptUnderMark } from '../keptUnderMark.js';
import type { PostRecord } from '../domain/records.js';

/** Most (site, types) whose earliest scheduled post is kept under the change mark. */
const SCHEDULES_KEPT = 1000;

/**
 * The publishing store on the shared Kysely database: embedded SQLite or
 * PostgreSQL, same queries. With `marked` (SQLite's change mark), the
 * store tells its mark, and keeps under the mark its callers read up to
 * `keptPosts` post records of listed pages, and the earliest scheduled date
 * of the sites it is asked about.
 */
export function createKyselyPublishingStore(
  /** Publishing's tables, and the accounts' beside them, which only the accounts' own functions read (a user's standing). */
  db: Kysely<PublishingDatabase>,
  marked?: { changeMark?: ChangeMark; keptPosts: number },
  /** The longest a list's search may take on SQLite (STORE_TIMEOUT_MS; see `kysely/postSearch.ts`). */
  searchBudgetMs?: number,
): PublishingStore {
  const changeMark = marked?.changeMark ?? (() => undefined);
  // Nothing is kept without a mark (PostgreSQL, a transaction).
  const keeps = marked?.changeMark !== undefined;
  return {
    // A transaction's store has no mark: what it reads may yet roll back.
    inTransaction: (work) => atomically(db, (trx) => work(createKyselyPublishingStore(trx, undefined, searchBudgetMs))),
    changeMark,
    ...kyselyPublishingSites(db),
    ...kyselyPublishingPosts(db),
    ...kyselyPostLists(db, keeps ? keptUnderMark<PostRecord>(marked.keptPosts) : undefined, searchBudgetMs),
    ...kyselyPostTrash(db),
    ...kyselyPostWrites(db, keeps ? keptUnderMark<{ first: string | null }>(SCHEDULES_KEPT) : undefined),
    ...kyselyPostFieldWrites(db),
    ...kyselyPostLikes(db),
    ...kyselyPostComments(db),
    ...kyselyPublishingUsers(db),
    ...kyselyPublishingTerms(db),
    ...kyselyPostAutosaves(db),
    ...kyselyPublishingMedia(db),
  };
}
