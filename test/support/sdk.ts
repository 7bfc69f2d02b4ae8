import { buildSdk } from '../../scripts/build-sdk.js';
import { oncePerRun } from './once-per-run.js';

/**
 * The SDK packages as `npm run build:sdk` packs them, built once per test run for the files that install
 * them (`sdk-packages`, `sdk-behaviour`): the build is two tsc compilations of every contract's client and
 * an `npm pack`, the same for both. Resolves with the tarballs' paths.
 */
export function packedSdk(): Promise<string[]> {
  return oncePerRun('sdk', (folder) => buildSdk(folder));
}
