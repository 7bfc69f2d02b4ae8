/**
 * Load-tests the full pipeline against a bare Koa route that returns the same
 * bytes, in the same run, over loopback, one server at a time, and prints
 * requests/s, p99 latency and their ratio per scenario.
 *
 * The two servers are measured in alternating rounds (BENCH_ROUNDS, default
 * 3, of BENCH_DURATION seconds each, default 4) so that load from elsewhere
 * on the machine affects both alike. BENCH_CONNECTIONS (default 50),
 * BENCH_SCENARIOS (comma list of names; default all).
 *
 * Besides requests/s it prints each server's CPU time per request (user +
 * system, from /proc on Linux): the load generator shares the machine, and
 * when it is the bottleneck (as it is for the bare app on 2 cores) the
 * requests/s ratio flatters the full server; the CPU ratio does not.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { scenarios, type Scenario } from './bench-scenarios.js';
import { freePort, projectRoot } from './tools.js';


const duration = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);


async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

function start(script: string, env: Record<string, string>): ChildProcess {
  return fork(join(projectRoot, script), [], {
    cwd: projectRoot,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Clock ticks per second of /proc's CPU times. */
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) a process has used so far, or NaN where /proc is not available. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

async function load(url: string, scenario: Scenario, server: ChildProcess) {
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({
    url,
    method: scenario.method,
    headers: scenario.headers,
    connections,
    duration,
    expectBody: undefined,
  });
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const unexpected = result.non2xx && scenario.status < 300 ? result.non2xx : 0;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + unexpected,
    cpuMicros: (cpu * 1e6) / result.requests.total,
  };
}

type Run = Awaited<ReturnType<typeof load>>;

/** Mean requests/s, the worst p99 and the least CPU per request over the rounds. */
const combine = (runs: Run[]) => ({
  rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
  p99: Math.max(...runs.map((run) => run.p99)),
  errors: runs.reduce((sum, run) => sum + run.errors, 0),
  cpuMicros: Math.min(...runs.map((run) => run.cpuMicros)),
});

const dir = mkdtempSync(join(tmpdir(), 'bench-'));
const serverPort = await freePort();
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
const server = start('src/main.ts', {
  PORT: String(serverPort),
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: databaseUrl,
  RATE_LIMIT_ANONYMOUS: '1000000000',
  RATE_LIMIT_KEYED: '1000000000',
});
const base = `http://127.0.0.1:${serverPort}`;
try {
  await waitFor(`${base}/v3/openapi`);
  const wanted = process.env.BENCH_SCENARIOS?.split(',');
  const rows = [];
  for (const scenario of (await scenarios({ base, databaseUrl })).filter((s) => !wanted || wanted.includes(s.name))) {
    const sample = await fetch(`${base}${scenario.path}`, { method: scenario.method, headers: scenario.headers });
    const body = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== scenario.status) throw new Error(`${scenario.name}: expected ${scenario.status}, got ${sample.status}`);
    const barePort = await freePort();
    const bare = start('scripts/bench-bare.ts', {
      BARE_PORT: String(barePort),
      BARE_BODY: body.toString('base64'),
      BARE_TYPE: sample.headers.get('content-type') ?? 'application/json',
      BARE_STATUS: String(sample.status),
    });
    await waitFor(`http://127.0.0.1:${barePort}/`);
    // Alternate the two servers round by round, so a change in machine load hits both alike.
    const baselineRuns = [];
    const fullRuns = [];
    for (let round = 0; round < rounds; round++) {
      baselineRuns.push(await load(`http://127.0.0.1:${barePort}${scenario.path}`, scenario, bare));
      fullRuns.push(await load(`${base}${scenario.path}`, scenario, server));
    }
    await stop(bare);
    const baseline = combine(baselineRuns);
    const full = combine(fullRuns);
    rows.push({
      scenario: scenario.name,
      bytes: body.length,
      'bare rps': Math.round(baseline.rps),
      'bare p99 ms': baseline.p99,
      'full rps': Math.round(full.rps),
      'full p99 ms': full.p99,
      'ratio (full/bare)': Number((full.rps / baseline.rps).toFixed(2)),
      'bare cpu us/req': Math.round(baseline.cpuMicros),
      'full cpu us/req': Math.round(full.cpuMicros),
      'cpu ratio (bare/full)': Number((baseline.cpuMicros / full.cpuMicros).toFixed(2)),
      errors: baseline.errors + full.errors,
    });
  }
  console.table(rows);
  console.log(`${rounds} alternating rounds of ${duration}s per server, ${connections} connections, loopback`);
  console.log('cpu: user + system time of the server process per request (least over the rounds)');
} finally {
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
}
