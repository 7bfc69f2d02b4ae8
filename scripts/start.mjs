/**
 * `npm start`: every service on http://localhost:8080 with demo data, from
 * this checkout. When a build is stale (the docs, the dashboard page, the
 * server bundle), `build-stale.ts` makes it through tsx; then the bundled
 * server runs with node. Plain JavaScript: a start with nothing changed
 * loads no TypeScript tool and builds nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_INPUTS, BUILD_STAMPS, isFresh } from './fresh.mjs';
import { stopWithParent } from './stop-with-parent.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const stale = ['docs', 'ui', 'server'].filter((name) => !isFresh(BUILD_STAMPS[name], BUILD_INPUTS[name]));
if (stale.length) {
  const build = spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), [join(projectRoot, 'scripts/build-stale.ts')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else {
  console.log('docs, dashboard page, server: up to date');
}
// One malloc arena, and image buffers of 4 MiB and more mapped on their own: glibc hands
// memory back after an avatar flood (docs/operations.md).
const env = {
  ...process.env,
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '1',
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '4194304',
};
const server = spawn(
  process.execPath,
  ['--max-semi-space-size=4', '--enable-source-maps', join(projectRoot, 'dist/server/src/main.js')],
  {
    stdio: 'inherit',
    env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
// Left by a parent that went without passing a signal on (a shell npm ran this under): the server stops too.
stopWithParent(() => server.kill('SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Once the server answers, where to go: the dashboard at the address a browser on this machine reaches (PUBLIC_URL when set).
const port = Number(process.env.PORT || 8080);
const host =
  !process.env.HOST || process.env.HOST === '0.0.0.0' || process.env.HOST === '::' ? '127.0.0.1' : process.env.HOST;
const origin = (process.env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(
  /\/+$/,
  '',
);
let announced = false;
const announce = setInterval(() => {
  const socket = connect(port, host);
  socket.once('error', () => socket.destroy());
  socket.once('connect', () => {
    socket.destroy();
    if (announced) return;
    announced = true;
    clearInterval(announce);
    console.log(
      `\nOpen ${origin}/developers in a browser: the developer dashboard (API docs at ${origin}/docs/profiles)\n`,
    );
  });
}, 250);
server.once('exit', () => clearInterval(announce));
