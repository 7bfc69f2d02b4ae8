/**
 * Builds the developer dashboard page into dist/developers/: the TypeScript
 * in web/developers/ (on the SDK generated from openapi/developer.yaml)
 * bundled and minified by esbuild, the stylesheet minified, the HTML and
 * icon copied. Everything is served from this origin; nothing loads from a
 * CDN. Each file is written whole (temporary file, then rename), so a
 * running server never serves half a build. Only when its inputs changed
 * since the last build (`--force`: always).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { BUILD_INPUTS, BUILD_STAMPS, buildWhenChanged } from './fresh.mjs';
import { projectRoot } from './tools.js';

const source = join(projectRoot, 'web/developers');
const output = join(projectRoot, 'dist/developers');

const writeWhole = (file: string, contents: Uint8Array | string) => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
};

export async function buildUi(): Promise<void> {
  const bundled = await build({
    entryPoints: { app: join(source, 'main.ts'), 'app-style': join(source, 'app.css') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    outdir: output,
    write: false,
  });

  mkdirSync(output, { recursive: true });
  for (const file of bundled.outputFiles) {
    writeWhole(join(output, basename(file.path).replace(/^app-style\.css$/, 'app.css')), file.contents);
  }
  for (const file of ['index.html', 'icon.svg']) writeWhole(join(output, file), readFileSync(join(source, file)));
}

/** Builds the page unless it is up to date; says which. */
export async function uiWhenChanged(force = false): Promise<void> {
  const built = force ? (await buildUi(), true) : await buildWhenChanged(BUILD_STAMPS.ui, BUILD_INPUTS.ui, buildUi);
  console.log(`ui: dist/developers/ (index.html, app.js, app.css, icon.svg)${built ? '' : ' (up to date)'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await uiWhenChanged(process.argv.includes('--force'));
