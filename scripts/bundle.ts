import { join } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from './tools.js';

/**
 * Bundles entry points of the project for running as processes with node,
 * each to `.tmp/<prefix><name>.mjs`, and returns their paths by name. Packages
 * stay in node_modules (unlike `npm run build:server`), so a bundle takes a
 * fraction of a second; `.tmp/` sits beside `src/`, so the code finds
 * `openapi/` and `dist/` as it does from source. Used by the test run and by
 * the benchmarks, which start the server and the admin command line often.
 */
export async function bundleEntryPoints<Name extends string>(entryPoints: Record<Name, string>, { prefix = '' } = {}): Promise<Record<Name, string>> {
  const names = Object.keys(entryPoints) as Name[];
  await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, join(projectRoot, entryPoints[name])])),
    outdir: join(projectRoot, '.tmp'),
    entryNames: `${prefix}[name]`,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return Object.fromEntries(names.map((name) => [name, join(projectRoot, '.tmp', `${prefix}${name}.mjs`)])) as Record<Name, string>;
}
