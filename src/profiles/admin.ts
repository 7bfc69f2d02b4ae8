import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

/** Adds the profiles admin commands to the admin command line. */
export function registerProfilesCommands(_program: Command, _store: () => Promise<Kysely<Database>>): void {}
