/**
 * `npm run bench:list`: `npm run bench`'s two publishing read rows alone
 * (a single post read, and a page of 20 of the posts list), for work on the
 * list without the whole bench. The same server (bundled as production runs
 * it, SQLite in a temporary file, demo data), the same site (copies of the
 * demo post, `BENCH_LIST_POSTS` of them, 1500 by default: as many as
 * `npm run bench` makes with its defaults) and the same paths, in
 * alternating rounds; prints each row's CPU per request (the least of the
 * rounds) and the list's multiple of the read (the issue's goal: at most 3).
 *
 * `BENCH_LIST_PROFILE=1`: the server compiled module by module, profiled
 * during the list's load only (as `npm run bench:profile` does); the profile
 * is kept as `.tmp/profiles/list.cpuprofile` and summarised.
 *
 * BENCH_DURATION seconds per round (default 4), BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (50), BENCH_LIST_TERMS=1 (the copies share the demo
 * post's categories and tags), BENCH_TOP lines of the profile (25),
 * BENCH_LIST_STORE=postgres (the store on PostgreSQL, BENCH_POSTGRES_URL or
 * the local `test` database, in a schema of its own dropped at the end;
 * its own processes' CPU is not counted in the rows), BENCH_LIST_KEPT=0 (the
 * server keeps no rendered post objects, `POST_RENDER_CACHE_ENTRIES=0`:
 * every request reads and renders its posts, as on PostgreSQL).
 *
 * Then the same two rows again with a write beside them: an edit of one of
 * the copies through the API every `BENCH_LIST_WRITE_MS` (100) ms, as the
 * admin, during both loads (issue 43: a page at most 3× a single read with
 * a write every 100 ms). Every write changes the store's change mark, so
 * little stays kept. The writes' own CPU is in the rows (a few per cent).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { dropSchema, freePort, projectRoot } from '../tools.js';
import { formatSummary, summarise, type CpuProfile } from './cpuprofile.js';
import { combine, load, startScript, stop, waitFor, type Measurement, type Server } from './harness.js';
import {
  buildServer,
  buildUnbundledServer,
  COMPILED_ENTRY,
  issuePublishingToken,
  listPath,
  makeBenchPosts,
  makePostgresBenchPosts,
  readPath,
  serverEnv,
} from './project.js';

const duration = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const postCount = Number(process.env.BENCH_LIST_POSTS ?? 1500);
const withTerms = process.env.BENCH_LIST_TERMS === '1';
const profile = process.env.BENCH_LIST_PROFILE === '1';
const top = Number(process.env.BENCH_TOP ?? 25);
const keepsRendered = process.env.BENCH_LIST_KEPT !== '0';
const writeEveryMs = Number(process.env.BENCH_LIST_WRITE_MS ?? 100);

const onPostgres = process.env.BENCH_LIST_STORE === 'postgres';
const store = onPostgres ? 'PostgreSQL' : 'SQLite';
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_list_${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'bench-list-'));
const databaseUrl = onPostgres ? postgresUrl : `sqlite:${join(dir, 'list.db')}`;
const port = await freePort();
let entry = COMPILED_ENTRY;
if (profile) entry = buildUnbundledServer();
else buildServer();
const profiles = join(dir, 'profiles');
mkdirSync(profiles);
const child = startScript(
  entry,
  {
    ...serverEnv(port, databaseUrl),
    ...(onPostgres ? { DATABASE_SCHEMA: schema } : {}),
    ...(profile ? { BENCH_PROFILE_DIR: profiles } : {}),
    ...(keepsRendered ? {} : { POST_RENDER_CACHE_ENTRIES: '0' }),
  },
  profile
    ? { nodeFlags: ['--import', 'tsx', '--import', pathToFileURL(join(projectRoot, 'scripts/bench/profiler.ts')).href] }
    : {},
);
const server: Server = { name: 'this project', child, base: `http://127.0.0.1:${port}` };

try {
  await waitFor(`${server.base}/v3/profiles/alex`, { status: 200, timeoutMs: 60_000 });
  const posts = onPostgres
    ? await makePostgresBenchPosts(postgresUrl, schema, postCount, 100_000, { withTerms })
    : makeBenchPosts(databaseUrl, postCount, 100_000, { withTerms });
  // Warm-up: the JIT has compiled both paths before any round.
  await load(server, { path: readPath(posts[0]!), connections, duration: 1 });
  await load(server, { path: listPath, connections, duration: 1 });
  if (profile) {
    child.kill('SIGUSR2');
    await load(server, { path: listPath, connections, duration });
    child.kill('SIGUSR2');
    const file = join(profiles, '1.cpuprofile');
    for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const kept = join(projectRoot, '.tmp/profiles');
    mkdirSync(kept, { recursive: true });
    copyFileSync(file, join(kept, 'list.cpuprofile'));
    console.log(
      `## list a page of 20\n${formatSummary(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), top)}`,
    );
  } else {
    const reads: Measurement[] = [];
    const lists: Measurement[] = [];
    for (let round = 0; round < rounds; round++) {
      console.error(`round ${round + 1}/${rounds}`);
      reads.push(await load(server, { path: readPath(posts[0]!), connections, duration }));
      lists.push(await load(server, { path: listPath, connections, duration }));
    }
    const read = combine(reads);
    const list = combine(lists);
    console.log(`| row | CPU per request | requests/s | errors |\n|---|---|---|---|`);
    console.log(
      `| read a post (${store}) | ${Math.round(read.cpuMicros)} µs | ${Math.round(read.rps)} | ${read.errors} |`,
    );
    console.log(
      `| list a page of 20 posts (${store}) | ${Math.round(list.cpuMicros)} µs | ${Math.round(list.rps)} | ${list.errors} |`,
    );
    console.log(
      `\n${(list.cpuMicros / read.cpuMicros).toFixed(2)}× a single read (goal ≤ 3); ${rounds} rounds of ${duration} s, ${connections} connections, ${postCount} posts${withTerms ? ' with terms' : ''}${keepsRendered ? '' : ', nothing kept (POST_RENDER_CACHE_ENTRIES=0)'}; load average ${loadavg()[0]!.toFixed(1)} at the end`,
    );

    // The same loads with an edit through the API every `writeEveryMs` beside them (one at a time: a slow one skips a turn).
    const token = await issuePublishingToken(databaseUrl, onPostgres ? schema : undefined);
    let writes = 0;
    let failedWrites = 0;
    let writing = false;
    const writer = setInterval(() => {
      if (writing) return;
      writing = true;
      const id = posts[1 + (writes % (posts.length - 1))]!;
      fetch(`${server.base}${readPath(id)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Edited ${writes}` }),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.status !== 200) failedWrites++;
        })
        .catch(() => failedWrites++)
        .finally(() => {
          writes++;
          writing = false;
        });
    }, writeEveryMs);
    const writtenReads: Measurement[] = [];
    const writtenLists: Measurement[] = [];
    try {
      for (let round = 0; round < rounds; round++) {
        console.error(`round ${round + 1}/${rounds}, a write every ${writeEveryMs} ms`);
        writtenReads.push(await load(server, { path: readPath(posts[0]!), connections, duration }));
        writtenLists.push(await load(server, { path: listPath, connections, duration }));
      }
    } finally {
      clearInterval(writer);
    }
    const readW = combine(writtenReads);
    const listW = combine(writtenLists);
    console.log(
      `\n| row, a write every ${writeEveryMs} ms beside it | CPU per request | requests/s | errors |\n|---|---|---|---|`,
    );
    console.log(
      `| read a post (${store}) | ${Math.round(readW.cpuMicros)} µs | ${Math.round(readW.rps)} | ${readW.errors} |`,
    );
    console.log(
      `| list a page of 20 posts (${store}) | ${Math.round(listW.cpuMicros)} µs | ${Math.round(listW.rps)} | ${listW.errors} |`,
    );
    console.log(
      `\n${(listW.cpuMicros / readW.cpuMicros).toFixed(2)}× a single read with a write every ${writeEveryMs} ms beside it (goal ≤ 3); ${writes} writes (${failedWrites} failed); load average ${loadavg()[0]!.toFixed(1)} at the end`,
    );
  }
} finally {
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
  if (onPostgres) await dropSchema(postgresUrl, schema).catch(() => {});
}
