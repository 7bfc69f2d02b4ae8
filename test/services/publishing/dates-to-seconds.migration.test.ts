import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_MODULES } from '../../../src/app.js';
import { openDatabase, withStartupLock, type OpenDatabase } from '../../../src/platform/store/database.js';
import { migrateModules } from '../../../src/platform/store/migrations.js';
import { dropSchema } from '../../support/server.js';
import { postRow } from './support.js';

const url = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
let database: OpenDatabase | undefined;
let schema: string | undefined;
afterEach(async () => {
  await database?.close();
  if (schema) await dropSchema(url, schema);
  database = schema = undefined;
});

/** Every module's migrations, publishing's only up to (not including) `before`. */
const migrationsUpTo = (before: string) =>
  STORE_MODULES.map((module) => {
    const migrations =
      module.name === 'publishing'
        ? module.migrations.slice(
            0,
            module.migrations.findIndex((m) => m.name === before),
          )
        : module.migrations;
    return { module: module.name, migrations };
  });

describe('migration publishing 11-dates-to-seconds, on a store with times in milliseconds', () => {
  it('keeps each time to its second (order kept, ties by ID), and leaves other shapes alone', async () => {
    schema = url.startsWith('postgres') ? `test_${randomUUID().replaceAll('-', '')}` : undefined;
    database = openDatabase(url, { timeoutMs: 10_000, schema });
    const db = database.db as Kysely<any>;
    const open = database;
    await withStartupLock(open, () => migrateModules(open, migrationsUpTo('11-dates-to-seconds')).then(() => {}));

    await db
      .insertInto('sites')
      .values({
        id: 1,
        domain: 'a.example.com',
        path: '',
        name: 'A',
        description: '',
        lang: 'en',
        is_private: 0,
        extra_post_types: '[]',
      })
      .execute();
    await db
      .insertInto('users')
      .values({
        id: 1,
        login: 'ada',
        email: '',
        display_name: 'Ada',
        first_name: '',
        last_name: '',
        nice_name: 'ada',
        url: '',
        avatar_url: '',
      })
      .execute();
    await db
      .insertInto('posts')
      .values([
        postRow({ id: 1, date: '2026-01-15T10:00:00.123Z', modified: '2026-01-15T10:00:01.999Z' }),
        postRow({ id: 2, date: '2026-01-15T10:00:00.000Z', modified: '2026-01-15T10:00:02.500Z', status: 'trash' }),
        // Not as `toISOString()` writes it: left as it is.
        postRow({ id: 3, date: '2026-01-15T10:00:00Z', modified: '2026-01-15T10:00:00.5Z' }),
      ])
      .execute();
    await db
      .insertInto('trash_meta')
      .values({ post_id: 2, previous_status: 'publish', trashed_at: '2026-01-15T10:00:02.500Z', original_slug: 'x' })
      .execute();
    await db
      .insertInto('revisions')
      .values({
        id: 1,
        post_id: 1,
        author_id: 1,
        date: '2026-01-15T10:00:01.999Z',
        title: '',
        content: '',
        excerpt: '',
      })
      .execute();

    const ran = await migrateModules(
      database,
      STORE_MODULES.map((module) => ({ module: module.name, migrations: module.migrations })),
    );
    expect(ran).toContain('publishing/11-dates-to-seconds');

    expect(await db.selectFrom('posts').select(['id', 'date', 'modified']).orderBy('id').execute()).toEqual([
      { id: 1, date: '2026-01-15T10:00:00.000Z', modified: '2026-01-15T10:00:01.000Z' },
      { id: 2, date: '2026-01-15T10:00:00.000Z', modified: '2026-01-15T10:00:02.000Z' },
      { id: 3, date: '2026-01-15T10:00:00Z', modified: '2026-01-15T10:00:00.5Z' },
    ]);
    expect(await db.selectFrom('trash_meta').select('trashed_at').execute()).toEqual([
      { trashed_at: '2026-01-15T10:00:02.000Z' },
    ]);
    expect(await db.selectFrom('revisions').select('date').execute()).toEqual([{ date: '2026-01-15T10:00:01.000Z' }]);
  });
});
