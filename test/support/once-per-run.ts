import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';

/**
 * The folder of this test run's shared products (`.tmp/run-<the run's template database>`), which the run's
 * teardown removes (global-setup.ts). Test files run in several worker processes, so what they share lives
 * in files, not in a module.
 */
export function runFolder(): string {
  return join(projectRoot, '.tmp', `run-${inject('postgresTemplate')}`);
}

/** How long a file waits for another worker's build of the same product: beyond any build under `--burn 4`. */
const WAIT_MS = 170_000;

/**
 * Builds `name` once per test run, whichever test file of whichever worker asks first, and hands every file
 * the same result: `build(folder)` writes into a folder of its own and resolves with what the files need
 * (JSON). The first caller takes the product's lock (an atomic `mkdir`) and builds; the others wait for its
 * result, or for its failure, which they report as theirs.
 */
export async function oncePerRun<T>(name: string, build: (folder: string) => Promise<T>): Promise<T> {
  const root = join(runFolder(), name);
  const done = join(root, 'result.json');
  const failed = join(root, 'failed.txt');
  mkdirSync(runFolder(), { recursive: true });
  let owner = false;
  try {
    mkdirSync(root);
    owner = true;
  } catch {
    // Another file builds it, or built it already.
  }
  if (owner) {
    try {
      const result = await build(join(root, 'out'));
      writeFileSync(done, JSON.stringify(result));
      return result;
    } catch (error) {
      writeFileSync(failed, String(error instanceof Error ? (error.stack ?? error.message) : error));
      throw error;
    }
  }
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as T;
    if (existsSync(failed))
      throw new Error(`building ${name} failed in another test file: ${readFileSync(failed, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name}: another test file's build did not finish within ${WAIT_MS} ms`);
}

/** Removes the run's shared products (the run's teardown). */
export function removeRunFolder(template: string): void {
  rmSync(join(projectRoot, '.tmp', `run-${template}`), { recursive: true, force: true });
}
