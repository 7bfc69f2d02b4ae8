/**
 * The benchmark's machinery: servers as child processes, their CPU time and
 * memory read from /proc, and load from autocannon. Nothing here knows the
 * project's insides (that is project.ts).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import autocannon from 'autocannon';
import { bundleEntryPoints } from '../bundle.js';
import { projectRoot, quietToolEnv } from '../tools.js';

/** A server under test: a child process and where it listens. */
export interface Server {
  name: string;
  child: ChildProcess;
  base: string;
}

export interface StartOptions {
  /** Extra node flags (`--cpu-prof`, `--import` of a preload). */
  nodeFlags?: string[];
  /** Where the child's stderr goes (default: this process's stderr). */
  stderr?: 'inherit' | 'ignore';
}

/**
 * Starts a TypeScript script of the project (through tsx, as `npm start`
 * does) as a child process in production mode, with every phone-home and
 * log switched off.
 */
export function startScript(script: string, env: Record<string, string>, options: StartOptions = {}): ChildProcess {
  return fork(join(projectRoot, script), [], {
    cwd: projectRoot,
    // Compiled JavaScript (`.js`) runs as it is, TypeScript through tsx.
    execArgv: [...(/\.m?js$/.test(script) ? [] : ['--import', 'tsx']), ...(options.nodeFlags ?? [])],
    // The benches send no email (each message goes to the quiet log, as production allows only when told), and count with a secret of their own.
    env: {
      ...quietToolEnv,
      NODE_ENV: 'production',
      MAIL_TO_LOG: 'true',
      COUNTER_KEY_SECRET: 'the benches counter key secret, 32+ characters',
      ...env,
    },
    stdio: ['ignore', 'ignore', options.stderr ?? 'inherit', 'ipc'],
  });
}

/**
 * The peer servers (`scripts/bench/peers/*.ts`) bundled by esbuild, as the
 * project's server is, so each runs as `node` on one JavaScript file with no
 * tsx loader thread in its process (which would count in its memory).
 * Answers each script's bundle, relative to the project (as `startScript` takes it).
 */
export async function bundledPeers(scripts: readonly string[]): Promise<Map<string, string>> {
  const names = new Map(scripts.map((script) => [script, `peer-${basename(script, '.ts')}`]));
  const bundles: Record<string, string> = await bundleEntryPoints(
    Object.fromEntries([...names].map(([script, name]) => [name, script])),
    { prefix: 'bench-' },
  );
  return new Map([...names].map(([script, name]) => [script, relative(projectRoot, bundles[name]!)]));
}

/** Resolves once `url` answers `status` (any answer when not given); rejects after `timeoutMs`. */
export async function waitFor(
  url: string,
  { status, timeoutMs = 30_000, intervalMs = 50 } = {} as {
    status?: number;
    timeoutMs?: number;
    intervalMs?: number;
  },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const answer = await fetch(url);
      await answer.arrayBuffer();
      if (status === undefined || answer.status === status) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer${status ? ` ${status}` : ''} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Stops a child with SIGTERM and waits for it to exit (SIGKILL after `graceMs`). */
export function stop(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Clock ticks per second of /proc's CPU times. */
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function statFields(stat: string): string[] {
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
}

/** CPU seconds (user + system) of a process, from its /proc/<pid>/stat text. */
function cpuSecondsOfStat(stat: string): number {
  const fields = statFields(stat);
  // utime and stime are fields 14 and 15 of stat(5); the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** CPU seconds (user + system) a process has used so far, or NaN where /proc is not available. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds (user + system) used so far by each process whose command
 * name starts with `name` (say `postgres`: a database server's backends and
 * helpers), by process ID; empty where /proc is not available. See
 * `cpuSecondsSince` for the time spent between two readings.
 */
export function cpuSecondsOfProcesses(name: string): Map<number, number> {
  const seconds = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return seconds;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (command.startsWith(name)) seconds.set(Number(pid), cpuSecondsOfStat(stat));
    } catch {
      // The process ended meanwhile.
    }
  }
  return seconds;
}

/**
 * CPU seconds the processes of two readings spent between them: each one
 * alive at the second reading, from the first (or from its start, if it
 * began since). A process that ended between the readings is not counted
 * (its time is gone from /proc), so the figure can only be low, never
 * negative.
 */
export function cpuSecondsSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

/** Resident memory of a process in bytes (VmRSS), or NaN where /proc is not available. */
export function rssBytes(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** One measured load: what the client saw and what the server spent. */
export interface Measurement {
  requests: number;
  rps: number;
  /** Latency percentile 99 in milliseconds. */
  p99: number;
  /** Answers with another status than expected, plus connection errors and time-outs. */
  errors: number;
  /** Server CPU time (user + system) per request, in microseconds. */
  cpuMicros: number;
}

export interface LoadSpec {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** The status every answer must have. */
  status?: number;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  /** Send exactly this many requests, then stop. */
  amount?: number;
  /** Path of the n-th request (0-based, across all connections), for requests that each touch another resource. */
  pathOf?: (n: number) => string;
}

/** Loads a server with autocannon and measures the server's CPU time per request over the same span. */
export async function load(server: Server, spec: LoadSpec): Promise<Measurement> {
  let sent = 0;
  const expected = spec.status ?? 200;
  let unexpected = 0;
  const pathOf = spec.pathOf;
  const cpuBefore = cpuSeconds(server.child.pid);
  const result = await autocannon({
    url: `${server.base}${spec.path}`,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.duration ?? 3 }),
    ...(pathOf
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({ ...request, path: pathOf(sent++) }),
            },
          ],
        }
      : {}),
    // Counted per answer so a wrong status is an error whatever its class (autocannon counts only non-2xx).
    setupClient: (client: autocannon.Client) => {
      client.on('response', (statusCode: number) => {
        if (statusCode !== expected) unexpected++;
      });
    },
  } as autocannon.Options);
  const cpu = cpuSeconds(server.child.pid) - cpuBefore;
  const requests = result.requests.total;
  return {
    requests,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
    cpuMicros: requests ? (cpu * 1e6) / requests : Number.NaN,
  };
}

/** Several rounds of one server summed up: mean requests/s, worst p99, least CPU per request. */
export interface Combined extends Measurement {
  rounds: number;
}

export function combine(runs: readonly Measurement[]): Combined {
  return {
    rounds: runs.length,
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
    p99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    // The least: load from elsewhere on the machine only ever adds CPU time (cache misses, preemption).
    // A round that got no answer (a starved machine) has no CPU per request: it is left out, not made the least.
    cpuMicros: Math.min(...runs.map((run) => run.cpuMicros).filter((micros) => !Number.isNaN(micros))),
  };
}
