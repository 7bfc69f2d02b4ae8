/**
 * Builds the API docs into dist/docs/, served by src/platform/docs/docsRoutes.ts
 * at /docs/<name> (`--force`: build even when the inputs are unchanged):
 *
 * - `<name>.json`: the contract bundled by Redocly, with an SDK sample in
 *   `x-codeSamples` of every operation (scripts/docs/code-samples.ts) and
 *   optional parameters left out of the samples and the try-it console
 *   until the reader ticks them (scripts/docs/optional-parameters.ts). The
 *   server serves it (and its YAML) with its servers at the serving origin.
 * - `<name>.html`: a small page on which Scalar's standalone bundle renders
 *   that document: reference, try-it console, code samples.
 * - `<name>.changelog.html`: the contract's differences from its last
 *   release (scripts/contract-versions.ts).
 * - `assets/`: Scalar's browser bundle copied from its npm package (no CDN)
 *   with a gzipped copy of each file, and the pages' own stylesheet and
 *   script (web/docs/);
 *   `examples/`: the example files the contracts name (`externalValue`).
 *
 * Each file is written whole (temporary file, then rename), so a running
 * server never serves half a build.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readContract, type OpenApiDocument } from './contracts.js';
import { changelogMarkdown, checkContract, RELEASED_DIR } from './contract-versions.js';
import { withCodeSamples } from './docs/code-samples.js';
import { withOptionalParametersOff } from './docs/optional-parameters.js';
import { changelogPage, referencePage, type PageAssets, type PageInfo } from './docs/pages.js';
import { BUILD_INPUTS, BUILD_STAMPS, buildWhenChanged } from './fresh.mjs';
import { CONTRACTS, projectRoot, quietToolEnv } from './tools.js';

const output = join(projectRoot, 'dist/docs');
const scalarPackage = join(projectRoot, 'node_modules/@scalar/api-reference');

const writeWhole = (file: string, contents: Uint8Array | string) => {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
};

/** Every contract bundled by `redocly bundle` (one process for all), as parsed JSON. */
async function bundledContracts(): Promise<Map<string, OpenApiDocument>> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
  try {
    // Its progress lines and notices go to stderr: shown only when it fails.
    const child = spawn(
      join(projectRoot, 'node_modules/.bin/redocly'),
      ['bundle', ...CONTRACTS.map((name) => `openapi/${name}.yaml`), '--output', dir, '--ext', 'json'],
      {
        cwd: projectRoot,
        env: quietToolEnv,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status) => resolve(status ?? 1));
    });
    if (code !== 0) throw new Error(`redocly bundle failed (exit ${code}):\n${errors}`);
    return new Map(
      CONTRACTS.map((name) => [name, JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as OpenApiDocument]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bundle with every example that names a file (`externalValue`) as the
 * contract wrote it: Redocly reads the file into `value`, as text (a PNG
 * becomes mangled characters). The docs serve the file beside the contract
 * (`/docs/<name>/examples/<file>`) and name it by its URL there.
 */
export function withExternalValues(source: unknown, bundled: unknown): unknown {
  if (Array.isArray(source) && Array.isArray(bundled))
    return bundled.map((item, index) => withExternalValues(source[index], item));
  if (!source || typeof source !== 'object' || !bundled || typeof bundled !== 'object') return bundled;
  const written = source as Record<string, unknown>;
  if (typeof written.externalValue === 'string') {
    const { value: _inlined, ...rest } = bundled as Record<string, unknown>;
    return { ...rest, externalValue: written.externalValue };
  }
  return Object.fromEntries(
    Object.entries(bundled).map(([key, value]) => [key, withExternalValues(written[key], value)]),
  );
}

/**
 * Scalar's ES-module browser bundle (its entry and the chunks it imports on
 * demand; not their source maps) under `assets/scalar-<version>/`, each with
 * a `.gz` beside it: a new version gets a new folder, so the files can be
 * cached for good. Answers the entry's URL.
 */
function copyScalar(): { script: string; folder: string } {
  const { version } = JSON.parse(readFileSync(join(scalarPackage, 'package.json'), 'utf8')) as { version: string };
  const from = join(scalarPackage, 'dist/browser');
  const folder = `scalar-${version}`;
  const files = [
    'standalone.esm.js',
    ...readdirSync(join(from, 'chunks'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => `chunks/${file}`),
  ];
  for (const file of files) {
    const bytes = readFileSync(join(from, file));
    writeWhole(join(output, 'assets', folder, file), bytes);
    writeWhole(join(output, 'assets', folder, `${file}.gz`), gzipSync(bytes, { level: 9 }));
  }
  return { script: `/docs/assets/${folder}/standalone.esm.js`, folder };
}

/** The pages' own files (web/docs/: stylesheet, the script run before Scalar's), each named by its content so it too can be cached for good. */
function copyOwnFiles(): { stylesheet: string; setup: string; files: string[] } {
  const copy = (source: string, extension: string) => {
    const bytes = readFileSync(join(projectRoot, 'web/docs', source));
    const file = `docs.${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.${extension}`;
    writeWhole(join(output, 'assets', file), bytes);
    return file;
  };
  const files = [copy('docs.css', 'css'), copy('docs.js', 'js')];
  return { stylesheet: `/docs/assets/${files[0]}`, setup: `/docs/assets/${files[1]}`, files };
}

/** The changelog of one contract; a contract never released yet says so. */
function changelog(name: string): string {
  if (!existsSync(join(RELEASED_DIR, `${name}.yaml`)))
    return 'No release of this contract yet: every operation in it is new.\n';
  return changelogMarkdown(checkContract(name));
}

export async function buildDocs(): Promise<void> {
  // Redocly bundles in its own process while this one compares the contracts with their releases (seconds each).
  const bundling = bundledContracts();
  // Handled when awaited below; marked so a failure here first is not also reported as unhandled.
  bundling.catch(() => undefined);
  const changelogs = new Map(CONTRACTS.map((name) => [name, changelog(name)]));
  const scalar = copyScalar();
  const own = copyOwnFiles();
  const assets: PageAssets = { script: scalar.script, setup: own.setup, stylesheet: own.stylesheet };
  for (const [name, bundled] of await bundling) {
    const info = bundled.info as { title: string; version: string };
    const page: PageInfo = { service: name, title: info.title, version: info.version };
    const document = withExternalValues(readContract(name), bundled) as OpenApiDocument;
    writeWhole(
      join(output, `${name}.json`),
      JSON.stringify(withCodeSamples(name, withOptionalParametersOff(document))),
    );
    writeWhole(join(output, `${name}.html`), referencePage(page, assets));
    writeWhole(join(output, `${name}.changelog.html`), changelogPage(page, changelogs.get(name)!, assets));
  }
  const examples = join(projectRoot, 'openapi/examples');
  if (existsSync(examples))
    for (const file of readdirSync(examples))
      writeWhole(join(output, 'examples', file), readFileSync(join(examples, file)));
  // What an earlier build left: another Scalar version's folder, older files of the pages' own.
  for (const entry of readdirSync(join(output, 'assets'))) {
    if (entry !== scalar.folder && !own.files.includes(entry))
      rmSync(join(output, 'assets', entry), { recursive: true, force: true });
  }
}

/** Builds the docs unless they are up to date; says which. */
export async function docsWhenChanged(force = false): Promise<void> {
  const built = force
    ? (await buildDocs(), true)
    : await buildWhenChanged(BUILD_STAMPS.docs, BUILD_INPUTS.docs, buildDocs);
  console.log(`docs: ${CONTRACTS.map((name) => `dist/docs/${name}.html`).join(', ')}${built ? '' : ' (up to date)'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await docsWhenChanged(process.argv.includes('--force'));
