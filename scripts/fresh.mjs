/**
 * Builds that run only when their inputs changed: the SHA-256 of every
 * input file (path and bytes, in name order) is kept beside the output, and
 * a build whose recorded hash matches is skipped. `npm start` uses it so a
 * start with nothing changed does not rebuild the docs, the dashboard page
 * or the server bundle. Plain JavaScript (types in fresh.d.mts): `npm start`
 * runs it with node alone, loading no TypeScript tool when nothing changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every file under each input (a file or a folder, relative to the project root), in name order. */
function inputFiles(inputs) {
  const files = [];
  for (const input of inputs) {
    const path = join(projectRoot, input);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path, { recursive: true, encoding: 'utf8' })) {
        const file = join(path, entry);
        if (statSync(file).isFile()) files.push(file);
      }
    } else files.push(path);
  }
  return files.sort();
}

export function inputsHash(inputs) {
  const hash = createHash('sha256');
  for (const file of inputFiles(inputs)) hash.update(relative(projectRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const recorded = (stamp) => {
  const file = join(projectRoot, stamp);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
};

export function isFresh(stamp, inputs) {
  return recorded(stamp) === inputsHash(inputs);
}

export async function buildWhenChanged(stamp, inputs, build) {
  const hash = inputsHash(inputs);
  if (recorded(stamp) === hash) return false;
  await build();
  const file = join(projectRoot, stamp);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${hash}\n`);
  return true;
}

/** The inputs of each build `npm start` makes (package-lock.json: the tools' versions). */
export const BUILD_INPUTS = {
  docs: ['openapi', 'redocly.yaml', 'scripts/build-docs.ts', 'scripts/docs', 'scripts/contracts.ts', 'scripts/contract-versions.ts', 'web/docs', 'package-lock.json'],
  ui: ['web/developers', 'generated/developer', 'scripts/build-ui.ts', 'package-lock.json'],
  server: ['src', 'openapi', 'generated', 'scripts/build-server.ts', 'tsconfig.json', 'package-lock.json'],
};

/** Where each build records the hash of the inputs it was built from. */
export const BUILD_STAMPS = {
  docs: 'dist/docs/.inputs-sha256',
  ui: 'dist/developers/.inputs-sha256',
  server: 'dist/server/.inputs-sha256',
};
