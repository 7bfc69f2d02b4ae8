/**
 * Builds that run only when their inputs changed: the SHA-256 of every
 * input file (path and bytes, in name order) is kept beside the output, and
 * a build whose recorded hash matches is skipped. `npm start` uses it so a
 * start with nothing changed does not rebuild the docs, the dashboard page
 * or the server bundle. The stamp also keeps a hash of each file's size and
 * modification time: while those match, nothing is read or hashed. Plain
 * JavaScript (types in fresh.d.mts): `npm start` runs it with node alone,
 * loading no TypeScript tool when nothing changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every file under each input (a file or a folder, relative to the project root), in name order, with its size and modification time. */
function inputFiles(inputs) {
  const files = [];
  const add = (path) => {
    const stats = statSync(path);
    if (stats.isFile()) files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
  };
  for (const input of inputs) {
    const path = join(projectRoot, input);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path, { recursive: true, encoding: 'utf8' })) add(join(path, entry));
    } else add(path);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const contentHash = (files) => {
  const hash = createHash('sha256');
  for (const { path } of files)
    hash.update(relative(projectRoot, path)).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex');
};

const statHash = (files) => {
  const hash = createHash('sha256');
  for (const { path, size, mtimeMs } of files) hash.update(`${relative(projectRoot, path)}\0${size}\0${mtimeMs}\0`);
  return hash.digest('hex');
};

export function inputsHash(inputs) {
  return contentHash(inputFiles(inputs));
}

/** The stamp's two lines: the inputs' content hash, and the hash of their sizes and times (absent in an older stamp). */
function readStamp(stamp) {
  const file = join(projectRoot, stamp);
  if (!existsSync(file)) return undefined;
  const [content, stats] = readFileSync(file, 'utf8').trim().split('\n');
  return { content, stats };
}

function writeStamp(stamp, content, stats) {
  const file = join(projectRoot, stamp);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${content}\n${stats}\n`);
}

/** Whether the inputs are as recorded, and what they are now (to record after a build). */
function check(stamp, inputs) {
  const files = inputFiles(inputs);
  const recorded = readStamp(stamp);
  const stats = statHash(files);
  if (recorded && recorded.stats === stats) return { fresh: true };
  const content = contentHash(files);
  if (recorded?.content !== content) return { fresh: false, content, stats };
  // Same bytes, new times (a checkout, a save without a change): recorded so that the next check reads nothing.
  writeStamp(stamp, content, stats);
  return { fresh: true };
}

export function isFresh(stamp, inputs) {
  return check(stamp, inputs).fresh;
}

export async function buildWhenChanged(stamp, inputs, build) {
  const { fresh, content, stats } = check(stamp, inputs);
  if (fresh) return false;
  await build();
  writeStamp(stamp, content, stats);
  return true;
}

/** The inputs of each build `npm start` (docs, ui, server) and `npm run mock` (mock) make (package-lock.json: the tools' versions). */
export const BUILD_INPUTS = {
  docs: [
    'openapi',
    'redocly.yaml',
    'scripts/build-docs.ts',
    'scripts/docs',
    'scripts/contracts.ts',
    'scripts/contract-versions.ts',
    'web/docs',
    'package-lock.json',
  ],
  ui: ['web/developers', 'generated/developer', 'scripts/build-ui.ts', 'package-lock.json'],
  server: ['src', 'openapi', 'generated', 'scripts/build-server.ts', 'tsconfig.json', 'package-lock.json'],
  mock: [
    'openapi',
    'scripts/build-mock.ts',
    'scripts/mock',
    'scripts/contracts.ts',
    'src/services',
    'src/platform',
    'package-lock.json',
  ],
};

/** Where each build records the hash of the inputs it was built from. */
export const BUILD_STAMPS = {
  docs: 'dist/docs/.inputs-sha256',
  ui: 'dist/developers/.inputs-sha256',
  server: 'dist/server/.inputs-sha256',
  mock: 'dist/mock/.inputs-sha256',
};
