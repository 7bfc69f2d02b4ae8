import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { freePort, projectRoot } from '../tools.js';
import { avatarFlood } from './avatarFlood.js';

/**
 * `npm run bench:avatars`: the avatar flood of the abuse report against the
 * server bundled from `src/main.ts`, run as a child process with this
 * process's environment (so `MALLOC_ARENA_MAX=1 npm run bench:avatars`
 * measures the recommended setting). `BENCH_AVATAR_CLIENTS` (4),
 * `BENCH_AVATAR_SECONDS` (5), `BENCH_AVATAR_SIZE` (2048).
 */
await build({
  entryPoints: { main: join(projectRoot, 'src/main.ts') },
  outdir: join(projectRoot, '.tmp'),
  entryNames: 'bench-avatars-[name]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'error',
});
const port = await freePort();
const child = spawn(process.execPath, [join(projectRoot, '.tmp/bench-avatars-main.mjs')], {
  cwd: projectRoot,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_AVATARS: '1000000000' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  let up = false;
  for (let tries = 0; tries < 300 && !up; tries++) {
    up = await fetch(`${base}/healthz`).then(async (res) => (await res.arrayBuffer(), true), () => false);
    if (!up) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!up) throw new Error('the server did not start');
  // sharp and jdenticon load with the first image: part of the start, not of the flood.
  await fetch(`${base}/avatar/${'0'.repeat(64)}?d=identicon&s=80`).then((res) => res.arrayBuffer());
  const result = await avatarFlood({
    base,
    pid: child.pid!,
    clients: Number(process.env.BENCH_AVATAR_CLIENTS ?? 4),
    seconds: Number(process.env.BENCH_AVATAR_SECONDS ?? 5),
    size: Number(process.env.BENCH_AVATAR_SIZE ?? 2048),
    settleMs: 5000,
  });
  console.log(JSON.stringify({ MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? null, ...result }));
} finally {
  child.kill('SIGTERM');
}
