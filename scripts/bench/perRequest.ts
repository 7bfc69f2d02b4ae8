/**
 * `npm run bench:per-request`: what one request of a hot path costs in
 * bytes allocated and in CPU time, for comparing two versions of the server
 * on a machine other work loads. Bytes allocated do not move with that
 * load: they are summed from V8's own `--trace-gc-nvp` lines (`allocated=`
 * since the previous collection) over the measured requests, in a young
 * generation kept small so that the window holds many collections. CPU
 * time (user + system, `/proc`) moves with it less than wall time does;
 * run the versions in alternating rounds and compare their least.
 *
 *   tsx scripts/bench/perRequest.ts [PROJECT_DIR ...]
 *
 * Each PROJECT_DIR (default: this project) is a checkout whose `src/main.ts`
 * runs through tsx (SQLite, demo data, production mode); the paths are the
 * anonymous profile lookup and a publishing post read. BENCH_REQUESTS
 * (default 5000) per path and round after BENCH_WARMUP (5000),
 * BENCH_ROUNDS (3), BENCH_CONNECTIONS (10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePort, projectRoot, quietToolEnv } from '../tools.js';
import { cpuSeconds, stop, waitFor } from './harness.js';
import { ENTRY, readPath, serverEnv } from './project.js';

const requests = Number(process.env.BENCH_REQUESTS ?? 5000);
const warmup = Number(process.env.BENCH_WARMUP ?? 5000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** The demo post the read asks for. */
const READ_POST = 108;
const PATHS = ['/v3/profiles/alex', readPath(READ_POST)];
const projects = process.argv.slice(2).length ? process.argv.slice(2).map((dir) => resolve(dir)) : [projectRoot];

interface Running {
  project: string;
  child: ChildProcess;
  base: string;
  log: string;
}

async function start(project: string, dir: string): Promise<Running> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--trace-gc-nvp', '--max-semi-space-size=1', '--import', 'tsx', join(project, ENTRY)],
    {
      cwd: project,
      env: {
        ...process.env,
        ...quietToolEnv,
        NODE_ENV: 'production',
        MAIL_TO_LOG: 'true',
        COUNTER_KEY_SECRET: 'the benches counter key secret, 32+ characters',
        ...serverEnv(port, `sqlite:${join(dir, `${projects.indexOf(project)}.db`)}`),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const running: Running = { project, child, base: `http://127.0.0.1:${port}`, log: '' };
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (running.log += text));
  await waitFor(`${running.base}${PATHS[0]}`, { status: 200, timeoutMs: 600_000, intervalMs: 500 });
  return running;
}

/** Sends `amount` requests of `path`; throws on any answer but a 200. */
async function send(server: Running, path: string, amount: number): Promise<void> {
  const result = await autocannon({ url: `${server.base}${path}`, connections, amount, timeout: 60 });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
}

/** Bytes V8 allocated, from the GC lines logged after offset `from`. */
function allocatedSince(log: string, from: number): number {
  let bytes = 0;
  for (const match of log.slice(from).matchAll(/\ballocated=(\d+)/g)) bytes += Number(match[1]);
  return bytes;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-per-request-'));
const servers: Running[] = [];
try {
  for (const project of projects) servers.push(await start(project, dir));
  for (const server of servers) for (const path of PATHS) await send(server, path, warmup);
  const results = new Map<string, { cpu: number[]; bytes: number[] }>();
  for (let round = 0; round < rounds; round++) {
    for (const path of PATHS) {
      for (const server of servers) {
        const from = server.log.length;
        const cpu = cpuSeconds(server.child.pid);
        await send(server, path, requests);
        const key = `${server.project}\t${path}`;
        const entry = results.get(key) ?? { cpu: [], bytes: [] };
        entry.cpu.push(((cpuSeconds(server.child.pid) - cpu) / requests) * 1e6);
        entry.bytes.push(allocatedSince(server.log, from) / requests);
        results.set(key, entry);
      }
    }
  }
  console.log(
    '| project | path | CPU per request (least, rounds) | bytes allocated per request (median) |\n| --- | --- | --- | --- |',
  );
  for (const [key, { cpu, bytes }] of results) {
    const [project, path] = key.split('\t');
    const median = [...bytes].sort((a, b) => a - b)[Math.floor(bytes.length / 2)]!;
    console.log(
      `| ${project} | \`GET ${path}\` | ${Math.min(...cpu).toFixed(0)} µs (${cpu.map((value) => value.toFixed(0)).join(', ')}) | ${Math.round(median).toLocaleString('en')} |`,
    );
  }
  console.log(
    `\n${rounds} rounds of ${requests} requests a path after ${warmup} of warm-up, ${connections} connections; Node ${process.version}`,
  );
} finally {
  for (const server of servers) await stop(server.child);
  rmSync(dir, { recursive: true, force: true });
}
