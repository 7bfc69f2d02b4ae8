/**
 * `npm run bench:workloads` (and the last part of `npm run bench`): the
 * project's profile lookup beside the stack a user would pick instead doing
 * the same work per request (peers/fastifyStack.ts: Fastify +
 * fastify-openapi-glue + @fastify/rate-limit + a SQLite read of the profile),
 * on three workloads over a store of 10,000 profiles besides the demo's:
 *
 * - `one`: alex's profile again and again;
 * - `zipf`: a Zipf mix (s = 1) over the 10,000 profiles;
 * - `uniform`: a uniform mix over the 10,000.
 *
 * The servers, loaded in alternating rounds (BENCH_ROUNDS, default 3, of
 * BENCH_DURATION seconds, default 4, BENCH_CONNECTIONS connections, default
 * 50): the compiled project, the stack, and on `one` the floor (a bare Koa
 * route writing alex's answer and the project's headers as constants,
 * peers/koa.ts). Per workload and server: CPU per request (the least of the
 * rounds), p99 (the worst), RSS (the largest read at the end of a round),
 * each also as a multiple of the stack's in the same run, and on `one` the
 * project's CPU as a multiple of the floor's; and the machine's load average.
 * Writes .tmp/bench-workloads.json. BENCH_SKIP_BUILD=1: the server is
 * already compiled (`npm run bench` builds it first).
 *
 * BENCH_WORKLOADS (`one,zipf,uniform` by default) picks workloads;
 * BENCH_PROJECT_ENV (JSON) adds a second project server with those settings
 * besides (what a setting costs, side by side), BENCH_PROJECT_NODE_FLAGS
 * (space-separated) one started with those flags of node (V8's, which
 * NODE_OPTIONS refuses), or both in one server; BENCH_BASELINE=FILE adds the
 * project's server bundled from another tree (its `dist/server/src/main.js`,
 * relative to the project: what a change buys, side by side on the same
 * loaded machine, which moves one server ±20% between runs); BENCH_CPU_PROF=DIR starts the
 * project's server with `node --cpu-prof` into DIR (its profile is written
 * when it stops; `tsx scripts/bench/cpuprofile.ts FILE` summarises it).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort, projectRoot } from '../tools.js';
import {
  bundledPeers,
  combine,
  load,
  rssBytes,
  startScript,
  stop,
  waitFor,
  type Measurement,
  type Server,
} from './harness.js';
import { buildServer, COMPILED_ENTRY, PROFILES_CONTRACT, serverEnv } from './project.js';

const duration = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PROFILES = 10_000;
const LOOKUP = '/v3/profiles/alex';
const slugOf = (index: number) => `bench-${String(index).padStart(5, '0')}`;

/** A pseudo-random sequence of its own seed (mulberry32): every run and every server gets the same paths. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` indexes into `size` profiles, Zipf-distributed (rank k drawn in proportion to 1/k). */
function zipfIndexes(size: number, count: number, next: () => number): Uint16Array {
  const cumulative = new Float64Array(size);
  let sum = 0;
  for (let k = 0; k < size; k++) cumulative[k] = sum += 1 / (k + 1);
  const out = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const target = next() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    out[i] = low;
  }
  return out;
}

const SEQUENCE = 1 << 20;
const zipf = zipfIndexes(PROFILES, SEQUENCE, random(1));
const uniformNext = random(2);
const uniform = Uint16Array.from({ length: SEQUENCE }, () => Math.floor(uniformNext() * PROFILES));
const ALL_WORKLOADS = [
  { key: 'one', name: 'one profile', pathOf: undefined },
  {
    key: 'zipf',
    name: `Zipf over ${PROFILES.toLocaleString('en')}`,
    pathOf: (n: number) => `/v3/profiles/${slugOf(zipf[n % SEQUENCE]!)}`,
  },
  {
    key: 'uniform',
    name: `uniform over ${PROFILES.toLocaleString('en')}`,
    pathOf: (n: number) => `/v3/profiles/${slugOf(uniform[n % SEQUENCE]!)}`,
  },
] as const;
const picked = (process.env.BENCH_WORKLOADS ?? 'one,zipf,uniform').split(',').map((key) => key.trim());
const WORKLOADS = ALL_WORKLOADS.filter((workload) => picked.includes(workload.key));
const FLOOR = "bare Koa route writing the project's headers";
const STACK = 'Fastify + openapi-glue + rate-limit + SQLite read';
const PROJECT = 'this project';

/** Copies alex's account and profile `count` times, as `bench-00000`…: the project's own tables, in one transaction. */
function addProfiles(file: string, count: number): void {
  const db = new Database(file);
  try {
    const account = db
      .prepare("select a.* from accounts a join profiles p on p.account_id = a.id where p.slug = 'alex'")
      .get() as Record<string, unknown>;
    const profile = db.prepare("select * from profiles where slug = 'alex'").get() as Record<string, unknown>;
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      return db.prepare(
        `insert into ${table} (${columns.join(',')}) values (${columns.map((c) => `@${c}`).join(',')})`,
      );
    };
    const accounts = insert('accounts', account);
    const profiles = insert('profiles', profile);
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = `bench-account-${i}`;
        const hex = i.toString(16).padStart(8, '0');
        accounts.run({
          ...account,
          id,
          email: `${slugOf(i)}@example.com`,
          email_sha256: hex.repeat(8),
          email_md5: hex.repeat(4),
        });
        profiles.run({ ...profile, account_id: id, slug: slugOf(i), display_name: `Bench ${i}` });
      }
    })();
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-workloads-'));
const children: ChildProcess[] = [];

async function started(
  name: string,
  script: string,
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<Server> {
  const child = startScript(script, env, { nodeFlags });
  children.push(child);
  const server: Server = { name, child, base: `http://127.0.0.1:${env.PORT ?? env.BENCH_PORT}` };
  await waitFor(`${server.base}${LOOKUP}`, { status: 200, timeoutMs: 60_000 });
  return server;
}

const projectEnv = async (databaseUrl: string, extra: Record<string, string> = {}) => ({
  ...serverEnv(await freePort(), databaseUrl),
  // As `npm run start:prod` sets them (docs/operations.md).
  NODE_OPTIONS: '--max-semi-space-size=4',
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '4194304',
  ...extra,
});

try {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.error('compiling the server (npm run build:server)');
    buildServer();
  }
  const file = join(dir, 'profiles.db');
  const databaseUrl = `sqlite:${file}`;
  // Migrated and seeded by a first start, stopped once it answers; then the 10,000 profiles.
  const first = await started('seeding', COMPILED_ENTRY, await projectEnv(databaseUrl));
  await stop(first.child);
  addProfiles(file, PROFILES);
  const bundles = await bundledPeers(['scripts/bench/peers/fastifyStack.ts', 'scripts/bench/peers/koa.ts']);
  const profileDir = process.env.BENCH_CPU_PROF;
  const projectFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const project = await started(PROJECT, COMPILED_ENTRY, await projectEnv(databaseUrl), projectFlags);
  const extraEnv = process.env.BENCH_PROJECT_ENV
    ? (JSON.parse(process.env.BENCH_PROJECT_ENV) as Record<string, string>)
    : undefined;
  const extraFlags = (process.env.BENCH_PROJECT_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // The floor answers alex's bytes with the headers the project sent with them (Node adds those it writes itself).
  const sample = await fetch(`${project.base}${LOOKUP}`);
  const bodyFile = join(dir, 'answer.json');
  writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
  const projectHeaders = Object.fromEntries(
    [...sample.headers].filter(
      ([name]) =>
        !['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding'].includes(name),
    ),
  );
  const baseline = process.env.BENCH_BASELINE;
  const servers = [
    project,
    ...(baseline
      ? [await started(`${PROJECT}, baseline (\`${baseline}\`)`, baseline, await projectEnv(databaseUrl))]
      : []),
    ...(extraEnv || extraFlags.length
      ? [
          await started(
            `${PROJECT}, ${[
              ...Object.entries(extraEnv ?? {}).map(([name, value]) => `\`${name}=${value}\``),
              ...extraFlags.map((flag) => `\`${flag}\``),
            ].join(' ')}`,
            COMPILED_ENTRY,
            await projectEnv(databaseUrl, extraEnv),
            extraFlags,
          ),
        ]
      : []),
    await started(STACK, bundles.get('scripts/bench/peers/fastifyStack.ts')!, {
      BENCH_PORT: String(await freePort()),
      BENCH_CONTRACT: PROFILES_CONTRACT,
      BENCH_DATABASE: file,
      BENCH_BODY_FILE: PROFILES_CONTRACT,
    }),
    await started(FLOOR, bundles.get('scripts/bench/peers/koa.ts')!, {
      BENCH_PORT: String(await freePort()),
      BENCH_BODY_FILE: bodyFile,
      BENCH_BODY_TYPE: sample.headers.get('content-type') ?? 'application/json',
      BENCH_HEADERS: JSON.stringify(projectHeaders),
      BENCH_WITH_HEADERS: '1',
    }),
  ];
  // Every server finds the profiles added after the seeding (the floor answers alex's bytes to any path).
  for (const server of servers)
    await waitFor(`${server.base}/v3/profiles/${slugOf(PROFILES - 1)}`, { status: 200, timeoutMs: 10_000 });
  const loads: number[] = [];
  const results: Record<string, Record<string, { cpuMicros: number; p99: number; rssMB: number; errors: number }>> = {};
  for (const workload of WORKLOADS) {
    // The floor answers alex's bytes whatever the path: a floor of the first workload only.
    const loaded = workload.key === 'one' ? servers : servers.filter((server) => server.name !== FLOOR);
    const runs = new Map<string, Measurement[]>(loaded.map((server) => [server.name, []]));
    const rss = new Map<string, number[]>(loaded.map((server) => [server.name, []]));
    for (const server of loaded)
      await load(server, { path: LOOKUP, pathOf: workload.pathOf, connections, duration: 1 });
    for (let round = 0; round < rounds; round++) {
      for (const [i] of loaded.entries()) {
        const server = loaded[(i + round) % loaded.length]!;
        console.error(`${workload.name}, round ${round + 1}/${rounds}: ${server.name}`);
        loads.push(loadavg()[0]!);
        runs
          .get(server.name)!
          .push(await load(server, { path: LOOKUP, pathOf: workload.pathOf, connections, duration }));
        rss.get(server.name)!.push(rssBytes(server.child.pid));
      }
    }
    results[workload.name] = Object.fromEntries(
      loaded.map((server) => {
        const combined = combine(runs.get(server.name)!);
        return [
          server.name,
          {
            cpuMicros: combined.cpuMicros,
            p99: combined.p99,
            rssMB: Math.max(...rss.get(server.name)!) / 2 ** 20,
            errors: combined.errors,
          },
        ];
      }),
    );
  }
  const stack = STACK;
  const lines = [
    `Load average (1 min) during the rounds: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}; ${rounds} rounds of ${duration} s, ${connections} connections.`,
    '',
    '| workload | server | CPU per request | × stack | × floor | p99 | × stack | RSS | × stack | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [workload, byServer] of Object.entries(results)) {
    const base = byServer[stack]!;
    const floor = byServer[FLOOR];
    for (const [server, row] of Object.entries(byServer))
      lines.push(
        `| ${workload} | ${server} | ${Math.round(row.cpuMicros)} µs | ${(row.cpuMicros / base.cpuMicros).toFixed(2)} | ${floor ? (row.cpuMicros / floor.cpuMicros).toFixed(2) : ''} | ${row.p99} ms | ${(row.p99 / base.p99).toFixed(2)} | ${row.rssMB.toFixed(0)} MB | ${(row.rssMB / base.rssMB).toFixed(2)} | ${row.errors} |`,
      );
  }
  console.log(lines.join('\n'));
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  writeFileSync(
    join(projectRoot, '.tmp/bench-workloads.json'),
    JSON.stringify({ loadAverage: loads, rounds, duration, connections, results }, null, 2),
  );
} finally {
  for (const child of children) if (child.exitCode === null) await stop(child);
  rmSync(dir, { recursive: true, force: true });
}
