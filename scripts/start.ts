/**
 * `npm start`: every service on http://localhost:8080 with demo data, from
 * this checkout. Builds what is stale (the docs, the dashboard page, the
 * server bundled by esbuild), each only when its inputs changed since its
 * last build, then runs the bundled server with node (not through tsx's
 * loader, which would transform the whole bundle): a start with nothing
 * changed builds nothing and loads no build tool.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BUILD_INPUTS, buildWhenChanged } from './fresh.js';
import { projectRoot } from './tools.js';

const SERVER_DIR = join(projectRoot, 'dist/server');
const built = await Promise.all([
  buildWhenChanged('dist/docs/.inputs-sha256', BUILD_INPUTS.docs, async () => (await import('./build-docs.js')).buildDocs()),
  buildWhenChanged('dist/developers/.inputs-sha256', BUILD_INPUTS.ui, async () => (await import('./build-ui.js')).buildUi()),
  buildWhenChanged('dist/server/.inputs-sha256', BUILD_INPUTS.server, async () => (await import('./build-server.js')).buildServer(SERVER_DIR)),
]);
console.log(`docs, dashboard page, server: ${built.map((rebuilt) => (rebuilt ? 'built' : 'up to date')).join(', ')}`);
const server = spawn(process.execPath, ['--enable-source-maps', join(SERVER_DIR, 'src/main.js')], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
