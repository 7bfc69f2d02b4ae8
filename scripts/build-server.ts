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
 * start-up nothing, not even parsing its code. Type-checking is `npm run
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
 * Koa asks whether an answer's body is a fetch `Response` (`body instanceof
 * Response`) for every body that is not a string or a buffer (a JSON
 * object such as `/healthz`'s, or a stream): reading the global `Response`
 * makes Node load its fetch (undici). In the bundle Koa asks a stand-in
 * instead, which is true of the same values: a `Response` is only ever made
 * by an undici already loaded, and carries its tag, so the global is read
 * only for a value that has the tag. The build fails if Koa no longer has
 * the check, so an upgrade cannot drop this silently.
 */
const koaWithoutFetch: Plugin = {
  name: 'koa-without-fetch',
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/koa\/lib\/(response|application)\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const check = /\binstanceof Response\b/g;
      if (!check.test(text)) throw new Error(`${args.path}: no \`instanceof Response\` to replace (Koa changed)`);
      return {
        contents: `const __FetchResponse = { [Symbol.hasInstance]: (value) => value != null && value[Symbol.toStringTag] === 'Response' && value instanceof globalThis.Response };\n${text.replace(check, 'instanceof __FetchResponse')}`,
        loader: 'js',
      };
    });
  },
};

/**
 * npm installs the same version of a package once for each dependant it
 * could not share a folder with (koa's and @koa/bodyparser's `mime-types`
 * and `mime-db`, say), and esbuild bundles each folder as a module of its
 * own: the server would run and keep each copy, mime-db's table of every
 * media type three times. A package imported from another package is
 * bundled from one folder per name and version: the first of the
 * lockfile's folders for it. Relative imports inside it follow.
 */
const onePackageCopy: Plugin = {
  name: 'one-package-copy',
  setup(build) {
    const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; link?: boolean }>;
    };
    const folders = new Map<string, string>();
    for (const [folder, { version, link }] of Object.entries(lock.packages).sort(
      ([a], [b]) => a.length - b.length || (a < b ? -1 : 1),
    )) {
      if (!folder || link || !version) continue;
      const key = `${packageNameAt(folder)}@${version}`;
      if (!folders.has(key)) folders.set(key, join(projectRoot, folder));
    }
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (
        args.pluginData === onePackageCopy ||
        !args.importer.includes('/node_modules/') ||
        args.path.startsWith('node:')
      )
        return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: onePackageCopy,
      });
      const at = found.path.lastIndexOf('/node_modules/');
      if (found.errors.length || found.external || at < 0) return found.errors.length ? undefined : found;
      const name = packageNameAt(found.path.slice(at + 1));
      const folder = found.path.slice(0, at + '/node_modules/'.length + name.length);
      const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
      const kept = folders.get(`${name}@${version}`);
      return kept ? { ...found, path: kept + found.path.slice(folder.length) } : found;
    });
  },
};

/** The package name of a lockfile folder or path inside node_modules (`node_modules/@scope/name/…` → `@scope/name`). */
function packageNameAt(path: string): string {
  const parts = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * What a bundled package requires at load but uses only in a mode the
 * server does not run, or only for a kind of request a lookup is not, is
 * required in the bundle when first used, so a server that never uses it
 * neither runs it nor keeps what it builds at load
 * (docs/decisions/lazy-packages.md):
 *
 * - openapi-backend's OpenAPI 3.0 definition check (openapi-schema-validator,
 *   off in `quick` mode), its document reader (json-schema-ref-parser with a
 *   YAML reader of its own; `validators.ts` keeps the document as given) and
 *   its mock answers (mock-json-schema);
 * - OpenTelemetry's API in prom-client's CPU counter, read for exemplars
 *   only (off here);
 * - Koa's content negotiation (accepts, with mime-types 2 and its mime-db),
 *   used by `ctx.accepts…` only (the docs' compression, the OAuth error
 *   page), and @koa/bodyparser's body reader (co-body, with raw-body,
 *   iconv-lite and the same mime-types 2), used by a request with a body.
 *
 * Each entry names a statement of the package's file and what replaces it:
 * an object whose properties load the module when first read
 * (`__onDemand`), or a function that loads it when first called. The build
 * fails if a package no longer has the statement.
 */
const onDemandObject = (name: string, required: string): [string, string] => [
  `const ${name} = ${required};`,
  `const ${name} = __onDemand(() => ${required});`,
];
const REQUIRED_ON_DEMAND: { file: RegExp; replace: [string, string][] }[] = [
  {
    file: /\/node_modules\/openapi-backend\/backend\.js$/,
    replace: [
      onDemandObject('openapi_schema_validator_1', '__importDefault(require("openapi-schema-validator"))'),
      onDemandObject('refparser_1', 'require("./refparser")'),
      onDemandObject('mock_json_schema_1', 'require("mock-json-schema")'),
    ],
  },
  {
    file: /\/node_modules\/prom-client\/lib\/metrics\/processCpuTotal\.js$/,
    replace: [onDemandObject('OtelApi', "require('@opentelemetry/api')")],
  },
  {
    file: /\/node_modules\/koa\/lib\/request\.js$/,
    replace: [["const accepts = require('accepts')\n", "const accepts = (req) => require('accepts')(req)\n"]],
  },
  {
    file: /\/node_modules\/@koa\/bodyparser\/dist\/index\.mjs$/,
    replace: [['import parser from "co-body";', 'const parser = __onDemand(() => require("co-body"));']],
  },
];

const requiredOnDemand: Plugin = {
  name: 'required-on-demand',
  setup(build) {
    for (const { file, replace } of REQUIRED_ON_DEMAND) {
      build.onLoad({ filter: file }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        for (const [statement, onDemand] of replace) {
          if (!text.includes(statement))
            throw new Error(`${args.path}: no \`${statement.trim()}\` to make on demand (the package changed)`);
          text = text.replace(statement, onDemand);
        }
        return {
          contents: `const __onDemand = (load) => { let loaded; return new Proxy({}, { get: (_, key) => (loaded ??= load())[key] }); };\n${text}`,
          loader: 'js',
        };
      });
    }
  },
};

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
      plugins: [onDemandPackages, httpByRequire, koaWithoutFetch, requiredOnDemand, onePackageCopy],
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
