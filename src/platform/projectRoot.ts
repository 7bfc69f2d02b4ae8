import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder: the nearest folder above this file that holds
 * `package.json`. The same code runs from `src/` (tsx) and bundled in
 * `dist/server/src/`, so the contracts (`openapi/`) and built pages
 * (`dist/docs/`, `dist/developers/`) are found from either place.
 */
function findProjectRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

const root = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. `projectFile('openapi/profiles.yaml')`. */
export const projectFile = (relative: string): string => join(root, relative);
