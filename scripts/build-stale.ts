/**
 * What `npm start` runs when a build is stale: the docs, the dashboard page
 * and the server bundled by esbuild, each only when its inputs changed
 * since its last build (see fresh.mjs). Loaded through tsx, so only when
 * something must be built.
 */
import { join } from 'node:path';
import { BUILD_INPUTS, BUILD_STAMPS, buildWhenChanged } from './fresh.mjs';
import { projectRoot } from './tools.js';

const built = await Promise.all([
  buildWhenChanged(BUILD_STAMPS.docs, BUILD_INPUTS.docs, async () => (await import('./build-docs.js')).buildDocs()),
  buildWhenChanged(BUILD_STAMPS.ui, BUILD_INPUTS.ui, async () => (await import('./build-ui.js')).buildUi()),
  buildWhenChanged(BUILD_STAMPS.server, BUILD_INPUTS.server, async () =>
    (await import('./build-server.js')).buildServer(join(projectRoot, 'dist/server')),
  ),
]);
console.log(`docs, dashboard page, server: ${built.map((rebuilt) => (rebuilt ? 'built' : 'up to date')).join(', ')}`);
