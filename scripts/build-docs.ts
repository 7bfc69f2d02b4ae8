/** Builds self-contained HTML docs (no CDN) for each contract `openapi/<name>.yaml` into dist/docs/<name>.html. */
import { CONTRACTS, run } from './tools.js';

for (const name of CONTRACTS) {
  const code = await run('redocly', ['build-docs', `openapi/${name}.yaml`, '--inlineBundle', '--output', `dist/docs/${name}.html`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (code !== 0) process.exit(code);
}
console.log(`docs: ${CONTRACTS.map((name) => `dist/docs/${name}.html`).join(', ')}`);
