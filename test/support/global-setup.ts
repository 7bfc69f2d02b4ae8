import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACTS, projectRoot, run } from '../../scripts/tools.js';

/** Builds the rendered docs once when they are missing, so the server can serve them. */
export default async function setup() {
  if (CONTRACTS.every((name) => existsSync(join(projectRoot, 'dist/docs', `${name}.html`)))) return;
  const code = await run('tsx', ['scripts/build-docs.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run docs failed');
}
