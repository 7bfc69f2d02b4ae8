import { loadContract } from './compile.js';
import type { Contract } from './types.js';

const loaded = new Map<string, Promise<Contract>>();

/**
 * `loadContract`, once per file and process: a contract depends only on its
 * file, and compiling one is the costliest part of building an app, so every
 * app built in the same process (the test suites build hundreds) shares the
 * compiled result.
 */
export function loadContractOnce(file: string): Promise<Contract> {
  let contract = loaded.get(file);
  if (!contract) {
    contract = loadContract(file);
    contract.catch(() => loaded.delete(file));
    loaded.set(file, contract);
  }
  return contract;
}
