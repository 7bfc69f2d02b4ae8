import type { Kysely } from 'kysely';
import { atomically } from '../../../platform/store/transactions.js';
import type { PublishingTables } from './tables.js';
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
import type { ChangeMark } from '../../../platform/store/database.js';

/** The publishing store on the shared Kysely database: embedded SQLite or PostgreSQL, same queries. */
export function createKyselyPublishingStore(db: Kysely<PublishingTables>, changeMark: ChangeMark = () => undefined): PublishingStore {
  return {
    inTransaction: (work) => atomically(db, (trx) => work(createKyselyPublishingStore(trx))),
    changeMark,
    ...kyselyPublishingSites(db),
    ...kyselyPublishingPosts(db),
    ...kyselyPostLists(db),
    ...kyselyPostTrash(db),
    ...kyselyPostWrites(db),
    ...kyselyPostFieldWrites(db),
    ...kyselyPostLikes(db),
    ...kyselyPostComments(db),
    ...kyselyPublishingUsers(db),
  };
}
