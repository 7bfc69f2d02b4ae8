/**
 * Builds the developer dashboard page into dist/developers/: the TypeScript
 * in web/developers/ (on the SDK generated from openapi/developer.yaml)
 * bundled and minified by esbuild, the stylesheet minified, the HTML and
 * icon copied. Everything is served from this origin; nothing loads from a
 * CDN. Each file is written whole (temporary file, then rename), so a
 * running server never serves half a build.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from './tools.js';

const source = join(projectRoot, 'web/developers');
const output = join(projectRoot, 'dist/developers');

const writeWhole = (file: string, contents: Uint8Array | string) => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
};

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
console.log('ui: dist/developers/ (index.html, app.js, app.css, icon.svg)');
