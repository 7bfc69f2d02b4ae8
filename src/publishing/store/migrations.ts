import type { Migration } from 'kysely';

/** Migrations of the publishing service; names sort into the one shared history. */
export const publishingMigrations: Record<string, Migration> = {};
