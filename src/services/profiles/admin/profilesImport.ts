import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { ImportRejected, recordProblem, readProfileImport } from '../import/readProfileImport.js';
import { SlugInUseError, type ProfilesStore } from '../domain/profilesStore.js';

/**
 * `profiles import FILE`: "upserts profiles from JSON … Every record is
 * validated first; any invalid record rejects the whole file with the record
 * number and field, and nothing is written." Avatar images (`avatar_file`)
 * are read relative to the import file's folder.
 */
export function registerProfilesImport(program: Command, store: () => Promise<ProfilesStore>): void {
  program
    .command('profiles')
    .description('The profile directory.')
    .command('import')
    .description(
      'Create or replace profiles from a JSON file (a JSON array of profile records; see docs/profiles.md, "Import format"), with the avatar images they name (avatar_file, relative to the file). All or nothing.',
    )
    .argument('<file>', 'JSON file of profile records')
    .action(async (file: string) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new ImportRejected(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      const folder = dirname(resolve(file));
      const profiles = await readProfileImport(text, new Date(), (avatarFile) => readFile(resolve(folder, avatarFile)));
      try {
        const { created, updated } = await (await store()).saveProfiles(profiles);
        const images = profiles.filter((profile) => profile.avatar).length;
        console.log(
          `imported ${profiles.length} profiles (${created} created, ${updated} updated), ${images} with an avatar image`,
        );
      } catch (error) {
        if (error instanceof SlugInUseError) throw recordProblem(error.index, 'slug', error.message);
        throw error;
      }
    });
}
