/**
 * Part of `npm run build:server`: writes each contract (`openapi/<name>.yaml`)
 * as JSON beside the compiled server (`<outDir>/openapi/<name>.json`, with
 * the SHA-256 of the YAML it was read from), so production start-up parses
 * JSON instead of YAML. The server reads the YAML instead whenever it has
 * changed since (see `readContractDocument` in src/platform/http/contract.ts).
 *
 *   tsx scripts/build-contracts.ts [outDir]   (default dist/server)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileContract } from '../src/platform/http/contract.js';
import { CONTRACTS, projectRoot } from './tools.js';

const outDir = resolve(projectRoot, process.argv[2] ?? 'dist/server');
mkdirSync(join(outDir, 'openapi'), { recursive: true });
for (const name of CONTRACTS) {
  const text = readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8');
  writeFileSync(join(outDir, 'openapi', `${name}.json`), JSON.stringify(compileContract(text)));
}
