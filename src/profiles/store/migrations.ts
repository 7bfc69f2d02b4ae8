import type { Migration } from 'kysely';

/** Migrations of the profiles service; names sort into the one shared history. */
export const profilesMigrations: Record<string, Migration> = {};
