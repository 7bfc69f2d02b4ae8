import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSdk, npmEnv } from '../../scripts/build-sdk.js';
import { oncePerRun } from './once-per-run.js';

const exec = promisify(execFile);

/**
 * The SDK packages as `npm run build:sdk` packs them, built once per test run for the files that install
 * them (`sdk-packages`, `sdk-behaviour`, `sdk-docs-examples`, and `cross-origin.e2e`, which unpacks them):
 * the build is a tsc compilation of every contract's client (and a CommonJS transpile) and an `npm pack`, the
 * same for all.
 * Resolves with the tarballs' paths.
 */
export function packedSdk(): Promise<string[]> {
  return oncePerRun('sdk', (folder) => buildSdk(folder));
}

/**
 * Makes `consumer` a package (`packageJson`) with the SDK packages installed as a user installs them
 * (`npm install --offline` of the tarballs): installed once per run, and linked as the consumer's
 * `node_modules`, so each file's consumer has a package.json of its own (CommonJS or ES modules) without
 * an install of its own. The packages have no dependencies, so nothing may need the registry.
 */
export async function installSdk(consumer: string, packageJson: Record<string, unknown>): Promise<void> {
  const installed = await oncePerRun('sdk-installed', async (folder) => {
    const tarballs = await packedSdk();
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true }));
    await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: folder, env: npmEnv });
    return join(folder, 'node_modules');
  });
  mkdirSync(consumer, { recursive: true });
  writeFileSync(join(consumer, 'package.json'), JSON.stringify(packageJson));
  symlinkSync(installed, join(consumer, 'node_modules'), 'dir');
}
