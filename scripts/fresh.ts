/**
 * Builds that run only when their inputs changed: the SHA-256 of every
 * input file (path and bytes, in name order) is kept beside the output, and
 * a build whose recorded hash matches is skipped. `npm start` uses it so a
 * start with nothing changed does not rebuild the docs, the dashboard page
 * or the server bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { projectRoot } from './tools.js';

/** Every file under each input (a file or a folder, relative to the project root), in name order. */
function inputFiles(inputs: readonly string[]): string[] {
  const files: string[] = [];
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

/** The hash of the inputs' paths and contents. */
export function inputsHash(inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of inputFiles(inputs)) hash.update(relative(projectRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/**
 * Runs `build` unless the stamp beside its output (`stamp`, relative to the
 * project root) records the inputs' current hash; records it after a build.
 * Resolves true when it built.
 */
export async function buildWhenChanged(stamp: string, inputs: readonly string[], build: () => Promise<void>): Promise<boolean> {
  const file = join(projectRoot, stamp);
  const hash = inputsHash(inputs);
  if (existsSync(file) && readFileSync(file, 'utf8').trim() === hash) return false;
  await build();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${hash}\n`);
  return true;
}

/** The inputs of each build `npm start` makes (package-lock.json: the tools' versions). */
export const BUILD_INPUTS = {
  docs: ['openapi', 'redocly.yaml', 'scripts/build-docs.ts', 'scripts/contracts.ts', 'scripts/contract-versions.ts', 'package-lock.json'],
  ui: ['web/developers', 'generated/developer', 'scripts/build-ui.ts', 'package-lock.json'],
  server: ['src', 'openapi', 'generated', 'scripts/build-server.ts', 'tsconfig.json', 'package-lock.json'],
} as const;
