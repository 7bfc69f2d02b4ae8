/**
 * Builds self-contained HTML docs (no CDN) for each contract
 * `openapi/<name>.yaml` into dist/docs/<name>.html, when the contracts or
 * the tools changed since the last build (`--force`: always).
 */
import { pathToFileURL } from 'node:url';
import { BUILD_INPUTS, buildWhenChanged } from './fresh.js';
import { CONTRACTS, run } from './tools.js';

export async function buildDocs(): Promise<void> {
  for (const name of CONTRACTS) {
    const code = await run('redocly', ['build-docs', `openapi/${name}.yaml`, '--inlineBundle', '--output', `dist/docs/${name}.html`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (code !== 0) throw new Error(`redocly build-docs ${name} failed (exit ${code})`);
  }
}

/** Builds the docs unless they are up to date; says which. */
export async function docsWhenChanged(force = false): Promise<void> {
  const built = force ? (await buildDocs(), true) : await buildWhenChanged('dist/docs/.inputs-sha256', BUILD_INPUTS.docs, buildDocs);
  console.log(`docs: ${CONTRACTS.map((name) => `dist/docs/${name}.html`).join(', ')}${built ? '' : ' (up to date)'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await docsWhenChanged(process.argv.includes('--force'));
