import { join } from 'node:path';
import { build } from 'esbuild';
import { PASSWORD_WORKER, projectRoot } from './tools.js';

/**
 * Bundles entry points of the project for running as processes with node,
 * each to `.tmp/<prefix><name>.mjs`, and returns their paths by name. Packages
 * stay in node_modules (unlike `npm run build:server`), so a bundle takes a
 * fraction of a second; `.tmp/` sits beside `src/`, so the code finds
 * `openapi/` and `dist/` as it does from source. Used by the test run and by
 * the benchmarks, which start the server and the admin command line often.
 * The password strength worker is bundled with them (`.tmp/<prefix>passwordEstimatorWorker.mjs`), and
 * each bundle told where it is.
 */
export async function bundleEntryPoints<Name extends string>(
  entryPoints: Record<Name, string>,
  { prefix = '' } = {},
): Promise<Record<Name, string>> {
  const names = Object.keys(entryPoints) as Name[];
  await build({
    entryPoints: {
      ...Object.fromEntries(names.map((name) => [name, join(projectRoot, entryPoints[name])])),
      [PASSWORD_WORKER.name]: join(projectRoot, PASSWORD_WORKER.source),
    },
    outdir: join(projectRoot, '.tmp'),
    entryNames: `${prefix}[name]`,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    define: { BUNDLED_PASSWORD_WORKER: JSON.stringify(`./${prefix}${PASSWORD_WORKER.name}.mjs`) },
    logLevel: 'error',
  });
  return Object.fromEntries(names.map((name) => [name, join(projectRoot, '.tmp', `${prefix}${name}.mjs`)])) as Record<
    Name,
    string
  >;
}
