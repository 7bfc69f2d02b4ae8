/**
 * `npm run build:server`: the production server as one JavaScript file,
 * `<outDir>/src/main.js` (default `dist/server`), and the admin command
 * line as another (`<outDir>/src/admin/cli.js`), each with a source map, and
 * each contract as JSON beside it (`<outDir>/openapi/<name>.json`, with the
 * SHA-256 of the YAML it was read from), so start-up parses JSON instead of
 * YAML; the server reads the YAML instead whenever it has changed since (see
 * `readContractDocument` in src/platform/contract/document.ts). The
 * password strength worker is a bundle of its own beside the server's
 * (`<outDir>/src/passwordEstimatorWorker.js`), which a worker thread loads.
 *
 * esbuild bundles `src/main.ts` with the packages it imports: Node then
 * loads one file at start-up instead of about two thousand modules
 * (docs/performance.md has the start-up figures). Left outside, loaded from node_modules when first needed:
 * native addons (better-sqlite3, sharp), what the server loads only on
 * demand through `createRequire` (pg, js-yaml), and every package the
 * server's own code imports with `import()` (OpenTelemetry, ioredis,
 * nodemailer, the password dictionaries): a feature that is off costs
 * start-up nothing, not even parsing its code. The build changes no
 * package's text and resolves every import as Node would: an upgrade of a
 * package is the package's own change, nothing here to investigate
 * (docs/decisions/lazy-packages.md says what that costs). Type-checking is `npm run
 * typecheck`'s (and `tsc -p tsconfig.build.json` before this in
 * `npm run build:server`).
 *
 *   tsx scripts/build-server.ts [outDir]
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { compileContract } from '../src/platform/contract/document.js';
import { CONTRACTS, PASSWORD_WORKER, projectRoot } from './tools.js';

/** Packages kept out of the bundle: native addons (a bundle cannot hold their binaries). */
const NATIVE = ['better-sqlite3', 'sharp'];

/**
 * A package that the project's code imports with `import()` stays in
 * node_modules, loaded by Node when that import runs (esbuild would
 * otherwise bundle it into the file every start parses). Imports inside
 * packages are bundled as usual: their own dependencies may not be
 * reachable from the bundle's folder.
 */
const onDemandPackages: Plugin = {
  name: 'on-demand-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'dynamic-import' && !args.importer.includes('/node_modules/') && !args.path.startsWith('node:')
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * `node:http` imported by the project's code is read with `require` in the
 * bundle (a module of its own that re-exports it), not by an ES module
 * import: Node builds an ES module's view of a built-in by reading each of
 * its exports, and `node:http`'s `WebSocket`, `CloseEvent` and
 * `MessageEvent` are getters that load Node's fetch (undici) when read,
 * at start, for a server that never fetches
 * (docs/decisions/lazy-packages.md).
 */
const httpByRequire: Plugin = {
  name: 'http-by-require',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.kind === 'import-statement' && !args.importer.includes('/node_modules/')
        ? { path: 'node:http', namespace: 'http-by-require' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'http-by-require' }, () => ({
      contents: "module.exports = require('node:http');",
      loader: 'js',
    }));
  },
};

/**
 * The build's plugins: each decides where a project import is loaded from;
 * none changes a package's text or where a package's own import resolves
 * (`test/platform/ops/production-build.test.ts` checks both).
 */
export const BUNDLE_PLUGINS: readonly Plugin[] = [onDemandPackages, httpByRequire];

/** The entry points bundled, each to `<outDir>/src/<name>.js`: the server and the admin command line. */
const ENTRY_POINTS = { main: 'src/main.ts', 'admin/cli': 'src/admin/cli.ts' } as const;

export async function buildServer(outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  for (const [name, source] of [...Object.entries(ENTRY_POINTS), [PASSWORD_WORKER.name, PASSWORD_WORKER.source]]) {
    // From the bundle's folder up to `<outDir>`, then the contracts' JSON (see `readContractDocument`).
    const up = '../'.repeat(name.split('/').length);
    const contractsDir = `${up}openapi/`;
    // From the bundle's folder to the worker's, `<outDir>/src/`.
    const passwordWorker = `${up.slice(3) || './'}${PASSWORD_WORKER.name}.js`;
    await build({
      entryPoints: { [name]: join(projectRoot, source) },
      outdir: join(outDir, 'src'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      external: NATIVE,
      plugins: [...BUNDLE_PLUGINS],
      // CommonJS packages inside an ES module bundle still call require() for Node's own modules and the externals.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      define: {
        BUNDLED_CONTRACTS_DIR: JSON.stringify(contractsDir),
        BUNDLED_PASSWORD_WORKER: JSON.stringify(passwordWorker),
      },
      // Without the layout's whitespace: a third less to read and parse at each start (`--enable-source-maps` maps it back).
      minifyWhitespace: true,
      sourcemap: true,
      // The map names the sources (stack traces point into src/ and node_modules/) without holding their text.
      sourcesContent: false,
      logLevel: 'warning',
    });
  }
  writeContracts(outDir);
}

/** Each contract as JSON, with the SHA-256 of its YAML: `<outDir>/openapi/<name>.json`. */
function writeContracts(outDir: string): void {
  mkdirSync(join(outDir, 'openapi'), { recursive: true });
  for (const name of CONTRACTS) {
    const text = readFileSync(join(projectRoot, 'openapi', `${name}.yaml`), 'utf8');
    writeFileSync(join(outDir, 'openapi', `${name}.json`), JSON.stringify(compileContract(text)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer(resolve(projectRoot, process.argv[2] ?? 'dist/server'));
}
