import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

/** Adds the publishing admin commands to the admin command line. */
export function registerPublishingCommands(_program: Command, _store: () => Promise<Kysely<Database>>): void {}
