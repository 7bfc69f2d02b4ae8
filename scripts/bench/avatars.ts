import { spawn } from 'node:child_process';
import { bundleEntryPoints } from '../bundle.js';
import { freePort, projectRoot } from '../tools.js';
import { avatarFlood } from './avatarFlood.js';
import { combine, load, type Measurement, type Server } from './harness.js';

/**
 * `npm run bench:avatars`: the avatar flood of the abuse report against the
 * server bundled from `src/main.ts`, run as a child process with this
 * process's environment (so
 * `MALLOC_ARENA_MAX=1 MALLOC_MMAP_THRESHOLD_=4194304 npm run bench:avatars`
 * measures the recommended setting). `BENCH_AVATAR_CLIENTS` (4),
 * `BENCH_AVATAR_SECONDS` (5), `BENCH_AVATAR_SIZE` (2048).
 *
 * Then, on the same server, the repeated avatar (the demo profile's avatar
 * asked for again and again: the drawn image's cache hit) beside the
 * anonymous profile lookup: the server's CPU per request of each, in
 * alternating rounds (`BENCH_ROUNDS`, 3, of `BENCH_DURATION` seconds, 3, 50
 * connections; the least of the rounds), and the avatar's as a multiple of
 * the lookup's.
 */
const { main } = await bundleEntryPoints({ main: 'src/main.ts' }, { prefix: 'bench-avatars-' });
const port = await freePort();
const child = spawn(process.execPath, [main], {
  cwd: projectRoot,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: 'sqlite::memory:',
    RATE_LIMIT_AVATARS: '1000000000',
    RATE_LIMIT_ANONYMOUS: '1000000000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  let up = false;
  for (let tries = 0; tries < 300 && !up; tries++) {
    up = await fetch(`${base}/healthz`).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    );
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
  const { MALLOC_ARENA_MAX = null, MALLOC_MMAP_THRESHOLD_ = null } = process.env;
  console.log(JSON.stringify({ MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, ...result }));
  console.log(JSON.stringify(await repeatedAvatar({ name: 'this project', child, base })));
} finally {
  child.kill('SIGTERM');
}

/** CPU per request of the repeated avatar and of the anonymous lookup, measured in turn on one server. */
async function repeatedAvatar(server: Server) {
  const lookup = '/v3/profiles/alex';
  const profile = (await (await fetch(`${server.base}${lookup}`)).json()) as { avatar_url: string };
  const url = new URL(profile.avatar_url);
  const avatar = `${url.pathname}?s=80`;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const duration = Number(process.env.BENCH_DURATION ?? 3);
  const runs: Record<'lookup' | 'avatar', Measurement[]> = { lookup: [], avatar: [] };
  for (const path of [lookup, avatar]) await load(server, { path, connections: 50, duration: 1 });
  for (let round = 0; round < rounds; round++) {
    runs.lookup.push(await load(server, { path: lookup, connections: 50, duration }));
    runs.avatar.push(await load(server, { path: avatar, connections: 50, duration }));
  }
  const [ofLookup, ofAvatar] = [combine(runs.lookup), combine(runs.avatar)];
  const row = (measured: typeof ofLookup) => ({
    cpuMicros: Math.round(measured.cpuMicros),
    rps: Math.round(measured.rps),
    p99: measured.p99,
    errors: measured.errors,
  });
  return {
    repeatedAvatar: { path: avatar, ...row(ofAvatar) },
    anonymousLookup: row(ofLookup),
    ratio: Number((ofAvatar.cpuMicros / ofLookup.cpuMicros).toFixed(2)),
  };
}
