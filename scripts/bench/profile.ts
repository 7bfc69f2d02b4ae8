/**
 * `npm run bench:profile`: where the project's CPU time goes on its hot
 * paths. Starts the server (compiled, SQLite, demo data) with the
 * profiler preloaded (profiler.ts), loads it with autocannon, and profiles
 * only the loaded window of each path: the anonymous lookup, the keyed
 * lookup, and the restore of posts (trashed beforehand, outside the window).
 * The server runs compiled by tsc module by module (`buildUnbundledServer`):
 * production's bundle would put every package's functions in one file.
 * Prints self time by file and by function (cpuprofile.ts) and keeps the
 * profiles in .tmp/profiles/ (open them in Chrome DevTools).
 *
 * BENCH_DURATION seconds of load per path (default 5), BENCH_CONNECTIONS (50),
 * BENCH_RESTORE_POSTS (2000), BENCH_TOP lines (20).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, projectRoot } from '../tools.js';
import { formatSummary, summarise, type CpuProfile } from './cpuprofile.js';
import { load, startScript, stop, waitFor, type Server } from './harness.js';
import {
  buildUnbundledServer,
  issueApiKey,
  issuePublishingToken,
  makeBenchPosts,
  restorePath,
  serverEnv,
  trashPath,
} from './project.js';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const restorePosts = Number(process.env.BENCH_RESTORE_POSTS ?? 1000);
const top = Number(process.env.BENCH_TOP ?? 20);
const LOOKUP = '/v3/profiles/alex';

const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
const profiles = join(dir, 'profiles');
mkdirSync(profiles);
const kept = join(projectRoot, '.tmp/profiles');
mkdirSync(kept, { recursive: true });

const databaseUrl = `sqlite:${join(dir, 'profile.db')}`;
const port = await freePort();
// Compiled JavaScript, as production runs it, but module by module (tsx only loads the TypeScript preload).
const entry = buildUnbundledServer();
const child = startScript(
  entry,
  { ...serverEnv(port, databaseUrl), BENCH_PROFILE_DIR: profiles },
  {
    nodeFlags: ['--import', 'tsx', '--import', pathToFileURL(join(projectRoot, 'scripts/bench/profiler.ts')).href],
  },
);
const server: Server = { name: 'this project', child, base: `http://127.0.0.1:${port}` };
let taken = 0;

/** Profiles what `work` makes the server do, and prints the summary. */
async function profiled(name: string, work: () => Promise<unknown>) {
  child.kill('SIGUSR2');
  await work();
  child.kill('SIGUSR2');
  const file = join(profiles, `${++taken}.cpuprofile`);
  for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  copyFileSync(file, join(kept, `${name}.cpuprofile`));
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  console.log(`\n## ${name}\n${formatSummary(summary, top)}`);
}

try {
  await waitFor(`${server.base}${LOOKUP}`, { status: 200, timeoutMs: 60_000 });
  const key = await issueApiKey(databaseUrl);
  const token = await issuePublishingToken(databaseUrl);
  const posts = makeBenchPosts(databaseUrl, restorePosts, 100_000, {
    withTerms: process.env.BENCH_RESTORE_TERMS === '1',
  });
  const keyed = { Authorization: `Bearer ${key}` };
  const bearer = { Authorization: `Bearer ${token}` };
  // Warm-up: the JIT has compiled the hot paths before any profile starts.
  await load(server, { path: LOOKUP, connections, duration: 1 });
  await load(server, { path: LOOKUP, headers: keyed, connections, duration: 1 });

  await profiled('anonymous-lookup', () => load(server, { path: LOOKUP, connections, duration }));
  await profiled('keyed-lookup', () => load(server, { path: LOOKUP, headers: keyed, connections, duration }));
  const phase = (path: (id: number) => string) =>
    load(server, {
      method: 'POST',
      path: path(posts[0]!),
      pathOf: (n) => path(posts[n] ?? 1),
      headers: bearer,
      connections,
      amount: posts.length,
    });
  await phase(trashPath);
  await profiled('restore', () => phase(restorePath));
  await profiled('trash', () => phase(trashPath));
  console.log(
    `\nprofiles kept in .tmp/profiles/ (${duration} s of load each; restore and trash: ${posts.length} posts)`,
  );
} finally {
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
}
