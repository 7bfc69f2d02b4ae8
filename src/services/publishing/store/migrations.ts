import { sql, SqliteAdapter, type Kysely, type Migration } from 'kysely';
import type { NamedMigration } from '../../../platform/store/migrations.js';
import { linkUsersToAccounts } from './accountLinks.js';

/**
 * Creates every publishing table with Kysely's schema builder only, so SQLite
 * and PostgreSQL get the same schema: explicit integer IDs, 0/1 booleans,
 * ISO-8601 text timestamps, JSON text for free-form values.
 */
const createTables: Migration = {
  // A migration runs against the schema of its time, not against today's typed Database.
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sites')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('path', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('lang', 'text', (col) => col.notNull())
      .addColumn('is_private', 'integer', (col) => col.notNull())
      .addColumn('extra_post_types', 'text', (col) => col.notNull())
      .addUniqueConstraint('sites_domain_path_unique', ['domain', 'path'])
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('login', 'text', (col) => col.notNull().unique())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('display_name', 'text', (col) => col.notNull())
      .addColumn('first_name', 'text', (col) => col.notNull())
      .addColumn('last_name', 'text', (col) => col.notNull())
      .addColumn('nice_name', 'text', (col) => col.notNull())
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('avatar_url', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('site_roles')
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
      .addColumn('role', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('site_roles_pk', ['site_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('role_capabilities')
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('capability', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('role_capabilities_pk', ['role', 'capability'])
      .execute();

    await db.schema
      .createTable('site_followers')
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
      .addPrimaryKeyConstraint('site_followers_pk', ['site_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('access_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .execute();

    await db.schema
      .createTable('posts')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('author_id', 'integer', (col) => col.references('users.id'))
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('slug', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('excerpt', 'text', (col) => col.notNull())
      .addColumn('password', 'text', (col) => col.notNull())
      .addColumn('parent_id', 'integer')
      .addColumn('guid', 'text', (col) => col.notNull())
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('modified', 'text', (col) => col.notNull())
      .addColumn('sticky', 'integer', (col) => col.notNull())
      .addColumn('comment_status', 'text', (col) => col.notNull())
      .addColumn('ping_status', 'text', (col) => col.notNull())
      .addColumn('likes_enabled', 'integer', (col) => col.notNull())
      .addColumn('sharing_enabled', 'integer', (col) => col.notNull())
      .addColumn('menu_order', 'integer', (col) => col.notNull())
      .addColumn('page_template', 'text', (col) => col.notNull())
      .addColumn('featured_media_id', 'integer')
      .addColumn('publicize_urls', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('posts_site_type_slug').on('posts').columns(['site_id', 'type', 'slug']).execute();

    await db.schema
      .createTable('trash_meta')
      .addColumn('post_id', 'integer', (col) => col.primaryKey().references('posts.id'))
      .addColumn('previous_status', 'text', (col) => col.notNull())
      .addColumn('trashed_at', 'text', (col) => col.notNull())
      .addColumn('original_slug', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('terms')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('taxonomy', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('slug', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('parent_id', 'integer', (col) => col.notNull())
      .addUniqueConstraint('terms_site_taxonomy_slug_unique', ['site_id', 'taxonomy', 'slug'])
      .execute();

    await db.schema
      .createTable('post_terms')
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('term_id', 'integer', (col) => col.notNull().references('terms.id'))
      .addPrimaryKeyConstraint('post_terms_pk', ['post_id', 'term_id'])
      .execute();
    await db.schema.createIndex('post_terms_term').on('post_terms').column('term_id').execute();

    await db.schema
      .createTable('attachments')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('post_id', 'integer', (col) => col.references('posts.id'))
      .addColumn('author_id', 'integer', (col) => col.references('users.id'))
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('guid', 'text', (col) => col.notNull())
      .addColumn('file', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('caption', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('alt', 'text', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('attachments_post_date').on('attachments').columns(['post_id', 'date']).execute();

    await db.schema
      .createTable('post_meta')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('meta_key', 'text', (col) => col.notNull())
      .addColumn('meta_value', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('post_meta_post').on('post_meta').column('post_id').execute();

    await db.schema
      .createTable('likes')
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
      .addColumn('date', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('likes_pk', ['post_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('comments')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('parent_id', 'integer')
      .addColumn('author_id', 'integer', (col) => col.references('users.id'))
      .addColumn('author_name', 'text', (col) => col.notNull())
      .addColumn('author_email', 'text', (col) => col.notNull())
      .addColumn('author_url', 'text', (col) => col.notNull())
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('status_before_trash', 'text')
      .execute();
    await db.schema.createIndex('comments_post_status').on('comments').columns(['post_id', 'status']).execute();

    await db.schema
      .createTable('revisions')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('author_id', 'integer', (col) => col.references('users.id'))
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('excerpt', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('revisions_post').on('revisions').column('post_id').execute();
  },

  async down(db: Kysely<any>) {
    const newestFirst = [
      'revisions',
      'comments',
      'likes',
      'post_meta',
      'attachments',
      'post_terms',
      'terms',
      'trash_meta',
      'posts',
      'access_tokens',
      'site_followers',
      'role_capabilities',
      'site_roles',
      'users',
      'sites',
    ];
    for (const table of newestFirst) await db.schema.dropTable(table).execute();
  },
};

const EDITOR_CAPABILITIES = [
  'read',
  'publish_posts',
  'edit_posts',
  'edit_others_posts',
  'edit_published_posts',
  'edit_private_posts',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
];

/**
 * The platform's standard roles with their post capabilities ("administrator,
 * editor: may edit/delete/publish any post of the site. author: may
 * edit/delete/publish own posts. contributor: may edit/delete own posts that
 * are not published; may not publish. subscriber: none."). They are the role
 * model rather than demo data, so every store has them.
 */
const standardRoles: Migration = {
  async up(db: Kysely<any>) {
    const roles: Record<string, string[]> = {
      administrator: EDITOR_CAPABILITIES,
      editor: EDITOR_CAPABILITIES,
      author: ['read', 'publish_posts', 'edit_posts', 'edit_published_posts', 'delete_posts', 'delete_published_posts'],
      contributor: ['read', 'edit_posts', 'delete_posts'],
      subscriber: ['read'],
    };
    const rows = Object.entries(roles).flatMap(([role, capabilities]) =>
      capabilities.map((capability) => ({ role, capability })),
    );
    await db.insertInto('role_capabilities').values(rows).execute();
  },
  async down(db: Kysely<any>) {
    await db
      .deleteFrom('role_capabilities')
      .where('role', 'in', ['administrator', 'editor', 'author', 'contributor', 'subscriber'])
      .execute();
  },
};

/**
 * Administrators and editors may read others' private posts (the platform's
 * `read_private_posts`), which reading a post through the API asks for.
 */
const readPrivatePosts: Migration = {
  async up(db: Kysely<any>) {
    await db
      .insertInto('role_capabilities')
      .values(['administrator', 'editor'].map((role) => ({ role, capability: 'read_private_posts' })))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom('role_capabilities').where('capability', '=', 'read_private_posts').execute();
  },
};

/**
 * No two posts of a site and type that need a unique slug hold the same one
 * (pages: among those of the same parent), enforced by the database, so two
 * concurrent restores cannot both take a free slug (the losing one tries the
 * next free slug, see `restorePost` in `kysely/trash.ts`). Slugs need to be
 * unique for the statuses `slugMustBeUnique` names (not draft, pending,
 * auto-draft) and a post in the trash keeps its `__trashed` slug out of the
 * way; an empty slug is never compared. The same partial expression index on
 * SQLite and PostgreSQL.
 */
const uniqueSlugs: Migration = {
  async up(db: Kysely<any>) {
    await sql`create unique index posts_unique_slug on posts (
      site_id, type, (case when type = 'page' then coalesce(parent_id, 0) else 0 end), slug
    ) where status not in ('draft', 'pending', 'auto-draft', 'trash') and slug <> ''`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index posts_unique_slug`.execute(db);
  },
};

/**
 * Lists read a page through an index on both stores: per site, type and
 * status, in date (or modified) order with the ID after it, the keyset a
 * page handle continues from (docs/publishing.md, "Lists of posts").
 *
 * Post counts per site, type, status and author, kept by the database
 * itself: a trigger on `posts` moves a count on every insert, delete, and
 * change of site, type, status or author, whoever writes (the API, the admin
 * command line, the demo seed, a test). The counts operation reads a few
 * rows, never the site's posts (docs/decisions/post-counts-table.md). On
 * PostgreSQL the trigger takes the two counters a change moves in one order
 * (the lower key first), so two transactions moving posts in opposite
 * directions (a trash and a restore) never wait on each other in a cycle.
 */
const listsAndCounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('posts_list_by_date')
      .on('posts')
      .columns(['site_id', 'type', 'status', 'date', 'id'])
      .execute();
    await db.schema
      .createIndex('posts_list_by_modified')
      .on('posts')
      .columns(['site_id', 'type', 'status', 'modified', 'id'])
      .execute();
    await db.schema
      .createTable('post_counts')
      .addColumn('site_id', 'integer', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('author_id', 'integer', (col) => col.notNull())
      .addColumn('n', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('post_counts_pk', ['site_id', 'type', 'status', 'author_id'])
      .execute();
    await sql`insert into post_counts (site_id, type, status, author_id, n)
      select site_id, type, status, coalesce(author_id, 0), count(*) from posts group by site_id, type, status, coalesce(author_id, 0)`.execute(
      db,
    );
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      const add = (row: 'new' | 'old', delta: '+ 1' | '- 1') =>
        sql.raw(`
        insert or ignore into post_counts (site_id, type, status, author_id, n) values (${row}.site_id, ${row}.type, ${row}.status, coalesce(${row}.author_id, 0), 0);
        update post_counts set n = n ${delta}
          where site_id = ${row}.site_id and type = ${row}.type and status = ${row}.status and author_id = coalesce(${row}.author_id, 0);`);
      await sql`create trigger post_counts_insert after insert on posts begin ${add('new', '+ 1')} end`.execute(db);
      await sql`create trigger post_counts_delete after delete on posts begin ${add('old', '- 1')} end`.execute(db);
      await sql`create trigger post_counts_update after update of site_id, type, status, author_id on posts
        when old.site_id <> new.site_id or old.type <> new.type or old.status <> new.status or coalesce(old.author_id, 0) <> coalesce(new.author_id, 0)
        begin ${add('old', '- 1')} ${add('new', '+ 1')} end`.execute(db);
      return;
    }
    await sql`create function post_counts_follow() returns trigger language plpgsql as $$
      declare
        old_key text;
        new_key text;
        old_first boolean;
      begin
        if tg_op <> 'INSERT' then
          old_key := concat_ws(chr(31), old.site_id, old.type, old.status, coalesce(old.author_id, 0));
        end if;
        if tg_op <> 'DELETE' then
          new_key := concat_ws(chr(31), new.site_id, new.type, new.status, coalesce(new.author_id, 0));
        end if;
        if tg_op = 'UPDATE' and old_key = new_key then
          return null;
        end if;
        old_first := tg_op = 'DELETE' or (tg_op = 'UPDATE' and old_key < new_key);
        if old_first then
          update post_counts set n = n - 1
            where site_id = old.site_id and type = old.type and status = old.status and author_id = coalesce(old.author_id, 0);
        end if;
        if tg_op <> 'DELETE' then
          insert into post_counts (site_id, type, status, author_id, n) values (new.site_id, new.type, new.status, coalesce(new.author_id, 0), 1)
            on conflict (site_id, type, status, author_id) do update set n = post_counts.n + 1;
        end if;
        if tg_op = 'UPDATE' and not old_first then
          update post_counts set n = n - 1
            where site_id = old.site_id and type = old.type and status = old.status and author_id = coalesce(old.author_id, 0);
        end if;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger post_counts_follow after insert or delete or update of site_id, type, status, author_id on posts
      for each row execute function post_counts_follow()`.execute(db);
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const trigger of ['post_counts_insert', 'post_counts_delete', 'post_counts_update'])
        await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    } else {
      await sql`drop trigger post_counts_follow on posts`.execute(db);
      await sql`drop function post_counts_follow()`.execute(db);
    }
    await db.schema.dropTable('post_counts').execute();
    await db.schema.dropIndex('posts_list_by_modified').execute();
    await db.schema.dropIndex('posts_list_by_date').execute();
  },
};

/**
 * One account per person: a publishing user belongs to the account of their
 * email address (`users.account_id`, at most one user per account), which
 * also owns their profile and developer applications. Existing users are
 * linked by email; an address without an account gets one, without a
 * password (see `linkUsersToAccounts`).
 */
const usersAccounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('account_id', 'text', (col) => col.references('accounts.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('users_account').unique().on('users').column('account_id').execute();
    await linkUsersToAccounts(db, new Date().toISOString());
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('users_account').execute();
    await db.schema.alterTable('users').dropColumn('account_id').execute();
  },
};

/**
 * Administrators and editors may add categories (the platform's
 * `manage_categories`), which a write naming a category the site does not
 * have yet asks for; tags need only `edit_posts`.
 */
const manageCategories: Migration = {
  async up(db: Kysely<any>) {
    await db
      .insertInto('role_capabilities')
      .values(['administrator', 'editor'].map((role) => ({ role, capability: 'manage_categories' })))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom('role_capabilities').where('capability', '=', 'manage_categories').execute();
  },
};

/**
 * Each user's autosave of a post (one per user and post, as the platform
 * keeps one autosave revision per user), and an index of terms by name for
 * the term lists (ordered by name) and the name lookups of `categories/new`.
 */
const autosavesAndTerms: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('autosaves')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('post_id', 'integer', (col) => col.notNull().references('posts.id'))
      .addColumn('author_id', 'integer', (col) => col.notNull().references('users.id'))
      .addColumn('modified', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('excerpt', 'text', (col) => col.notNull())
      .addUniqueConstraint('autosaves_post_author_unique', ['post_id', 'author_id'])
      .execute();
    await db.schema
      .createIndex('terms_site_taxonomy_name')
      .on('terms')
      .columns(['site_id', 'taxonomy', 'name'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('terms_site_taxonomy_name').execute();
    await db.schema.dropTable('autosaves').execute();
  },
};

/**
 * Posts with a password, per site, status and type: few, and found through
 * this partial index, so that a list's count for callers without a token is
 * the kept counts (`post_counts`) less the published ones, never a read of
 * every post of the site (`store/kysely/postLists.ts`). Its condition names
 * no status: SQLite prepares a statement again on every run when a bound
 * value could decide whether a partial index applies (a `status = ?` beside
 * an index on `status = 'publish'`), which every read of a post's terms has.
 */
const protectedPostsIndex: Migration = {
  async up(db: Kysely<any>) {
    await sql`create index posts_protected on posts (site_id, status, type) where password <> ''`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index posts_protected`.execute(db);
  },
};

/**
 * Administrators and editors may save any HTML in a post (the platform's
 * `unfiltered_html`, which on a single site only they have); everyone else's
 * title, content and excerpt go through the post filter on save
 * (`domain/kses.ts`). A custom role has it only when given it.
 *
 * `posts.html_unchecked` (1) marks a post whose stored title, content and
 * excerpt never went through that filter and may hold what it removes: the
 * posts that exist now whose author has no `unfiltered_html` on the post's
 * site (the author is the only writer the store knows). Such a post is
 * filtered each time it is read, until its next save through the API filters
 * and stores it (docs/decisions/unfiltered-html.md). Rows written by other
 * means (the demo data, the admin command line) are the operator's and start
 * at 0.
 */
const unfilteredHtml: Migration = {
  async up(db: Kysely<any>) {
    await db
      .insertInto('role_capabilities')
      .values(['administrator', 'editor'].map((role) => ({ role, capability: 'unfiltered_html' })))
      .execute();
    await db.schema
      .alterTable('posts')
      .addColumn('html_unchecked', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`update posts set html_unchecked = 1 where not exists (
      select 1 from site_roles
        join role_capabilities on role_capabilities.role = site_roles.role
        where site_roles.site_id = posts.site_id and site_roles.user_id = posts.author_id
          and role_capabilities.capability = 'unfiltered_html'
    )`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('posts').dropColumn('html_unchecked').execute();
    await db.deleteFrom('role_capabilities').where('capability', '=', 'unfiltered_html').execute();
  },
};

/**
 * Administrators, editors and authors may upload files (the platform's
 * `upload_files`; contributors may not): a multipart write's `media[]` files
 * are refused per file as the platform refuses them, `User cannot upload
 * media.` without it (there is no media library yet for the others).
 */
const clientWrites: Migration = {
  async up(db: Kysely<any>) {
    await db
      .insertInto('role_capabilities')
      .values(['administrator', 'editor', 'author'].map((role) => ({ role, capability: 'upload_files' })))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom('role_capabilities').where('capability', '=', 'upload_files').execute();
  },
};

/** Columns holding times written by the API (and by the demo seed), by table: those `11-dates-to-seconds` brings to the second. */
const TIME_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  posts: ['date', 'modified'],
  trash_meta: ['trashed_at'],
  revisions: ['date'],
  comments: ['date'],
  likes: ['date'],
  attachments: ['date'],
};

/**
 * Stored times to the whole second, as the platform's `DATETIME` columns
 * keep them and as every write keeps them since (`storedTime` in
 * `domain/dates.ts`): a page handle carries a post's date to the second,
 * and posts stored with milliseconds were skipped or answered again when
 * paged (issue 43). A time as `toISOString()` writes it
 * (`2026-01-15T10:00:00.123Z`) keeps its first 19 characters, then
 * `.000Z`: its order among the others is kept, ties are broken by ID. One
 * statement per column, the same on SQLite and PostgreSQL (text columns).
 * Not undone: the fractions are gone.
 */
const datesToSeconds: Migration = {
  async up(db: Kysely<any>) {
    for (const [table, columns] of Object.entries(TIME_COLUMNS)) {
      for (const column of columns) {
        const col = sql.ref(column);
        await sql`update ${sql.table(table)} set ${col} = substr(${col}, 1, 19) || '.000Z'
          where length(${col}) = 24 and ${col} like '____-__-__T__:__:__.___Z' and substr(${col}, 20, 4) <> '.000'`.execute(
          db,
        );
      }
    }
  },
  async down() {},
};

/**
 * Search through an index (docs/decisions/search-index.md). SQLite: an
 * FTS5 table of every post's title, excerpt and content by post ID, with
 * the trigram tokenizer (any case) and no positions (`detail=none`): it
 * names the posts holding every three-character piece of a term, and the
 * list then checks those few for the term itself (`store/kysely/postSearch.ts`).
 * Triggers keep it in step with `posts` whoever writes. PostgreSQL: trigram
 * GIN indexes (`pg_trgm`) on the three columns, which `ILIKE '%term%'` uses.
 * `pg_trgm` is installed (in `public` when this user may, else in the
 * deployment's schema) unless the database has it already.
 */
const searchIndex: Migration = {
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`create virtual table posts_search using fts5(
        title, excerpt, content, content = 'posts', content_rowid = 'id', tokenize = 'trigram', detail = 'none'
      )`.execute(db);
      const add = sql.raw(
        `insert into posts_search (rowid, title, excerpt, content) values (new.id, new.title, new.excerpt, new.content);`,
      );
      const remove = sql.raw(
        `insert into posts_search (posts_search, rowid, title, excerpt, content) values ('delete', old.id, old.title, old.excerpt, old.content);`,
      );
      await sql`create trigger posts_search_insert after insert on posts begin ${add} end`.execute(db);
      await sql`create trigger posts_search_delete after delete on posts begin ${remove} end`.execute(db);
      await sql`create trigger posts_search_update after update of id, title, excerpt, content on posts begin ${remove} ${add} end`.execute(
        db,
      );
      await sql`insert into posts_search (posts_search) values ('rebuild')`.execute(db);
      return;
    }
    const installed = await sql<{
      schema: string;
    }>`select n.nspname as schema from pg_opclass c join pg_namespace n on n.oid = c.opcnamespace
      where c.opcname = 'gin_trgm_ops'`.execute(db);
    let schema = installed.rows[0]?.schema;
    if (schema === undefined) {
      const publicSchema = await sql<{
        ok: boolean;
      }>`select has_schema_privilege('public', 'CREATE') as ok from pg_namespace where nspname = 'public'`.execute(db);
      if (publicSchema.rows[0]?.ok) await sql`create extension if not exists pg_trgm schema public`.execute(db);
      else await sql`create extension if not exists pg_trgm`.execute(db);
      schema = (
        await sql<{
          schema: string;
        }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
      ).rows[0]!.schema;
    }
    for (const column of ['title', 'excerpt', 'content']) {
      await sql`create index ${sql.id(`posts_search_${column}`)} on posts using gin (${sql.id(column)} ${sql.id(schema, 'gin_trgm_ops')})`.execute(
        db,
      );
    }
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update'])
        await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      await sql`drop table posts_search`.execute(db);
      return;
    }
    for (const column of ['title', 'excerpt', 'content'])
      await sql`drop index ${sql.id(`posts_search_${column}`)}`.execute(db);
  },
};

/**
 * The media library: an attachment's current file in the file store
 * (`storage_key`, null for a demo row whose file lives elsewhere), its size
 * and last change; every file an item holds or held (`media_files`: an
 * edit keeps the file it replaces), which the serving of files, the
 * per-site quota and the sweep of files no row names read.
 */
const mediaLibrary: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('attachments').addColumn('storage_key', 'text').execute();
    await db.schema
      .alterTable('attachments')
      .addColumn('bytes', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('attachments').addColumn('modified', 'text').execute();
    await db.schema.createIndex('attachments_site_date').on('attachments').columns(['site_id', 'date']).execute();
    await db.schema
      .createTable('media_files')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
      .addColumn('media_id', 'integer', (col) => col.notNull())
      .addColumn('file', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('bytes', 'bigint', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('created', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('media_files_media').on('media_files').columns(['media_id', 'created']).execute();
    await db.schema.createIndex('media_files_site').on('media_files').column('site_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('media_files').execute();
    await db.schema.dropIndex('attachments_site_date').execute();
    for (const column of ['storage_key', 'bytes', 'modified'])
      await db.schema.alterTable('attachments').dropColumn(column).execute();
  },
};

/**
 * The rest of the platform's standard role capabilities that a site object's
 * `capabilities` names (WordPress's `populate_roles`): administrators manage
 * the site's options, theme, users and plugins; administrators and editors
 * moderate comments. Nothing else checks them yet; they are the roles' so
 * that a site object tells each user what their role holds
 * (`flows/siteObject.ts`), and a custom role has them only when given them.
 */
const siteCapabilities: Migration = {
  async up(db: Kysely<any>) {
    const rows = [
      ...ADMINISTRATOR_ONLY.map((capability) => ({ role: 'administrator', capability })),
      ...['administrator', 'editor'].map((role) => ({ role, capability: 'moderate_comments' })),
    ];
    await db.insertInto('role_capabilities').values(rows).execute();
  },
  async down(db: Kysely<any>) {
    await db
      .deleteFrom('role_capabilities')
      .where('capability', 'in', [...ADMINISTRATOR_ONLY, 'moderate_comments'])
      .execute();
  },
};

/** The capabilities of `siteCapabilities` only administrators hold on a single site. */
const ADMINISTRATOR_ONLY = [
  'manage_options',
  'edit_theme_options',
  'list_users',
  'edit_users',
  'promote_users',
  'remove_users',
  'delete_users',
  'activate_plugins',
];

/** Migrations of the publishing service, in the order they are applied. */
export const publishingMigrations: readonly NamedMigration[] = [
  { name: '01-tables', legacyName: '2026-11-22-b-publishing-01-tables', ...createTables },
  { name: '02-standard-roles', legacyName: '2026-11-22-b-publishing-02-standard-roles', ...standardRoles },
  { name: '03-read-private-posts', legacyName: '2026-11-23-b-publishing-03-read-private-posts', ...readPrivatePosts },
  { name: '04-unique-slugs', ...uniqueSlugs },
  { name: '05-list-indexes-and-post-counts', ...listsAndCounts },
  { name: '06-users-accounts', ...usersAccounts },
  { name: '07-manage-categories', ...manageCategories },
  { name: '08-protected-posts-index', ...protectedPostsIndex },
  { name: '09-unfiltered-html', ...unfilteredHtml },
  { name: '10-search-index', ...searchIndex },
  { name: '11-dates-to-seconds', ...datesToSeconds },
  { name: '12-client-writes', ...clientWrites },
  { name: '13-autosaves-and-terms', ...autosavesAndTerms },
  { name: '14-media-library', ...mediaLibrary },
  { name: '15-site-capabilities', ...siteCapabilities },
];
