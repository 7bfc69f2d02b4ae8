/**
 * `npm run bench:scale`: what the deployment's engines cost a request, in
 * one run on this machine. The compiled server (as production runs it)
 * answers the anonymous profile lookup in each configuration:
 *
 * - embedded SQLite, limits counted in the process (the baseline);
 * - SQLite with the limits in Redis;
 * - PostgreSQL and Redis (production), on a primary started here;
 * - the same with a streaming replica for the reads (`DATABASE_READ_URL`);
 * - production with tracing on (spans sent over OTLP/HTTP to a receiver in
 *   this process that drops them).
 *
 * Alternating rounds (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds,
 * default 4, BENCH_CONNECTIONS connections, default 50); each row: the
 * server's CPU per request (the least of the rounds) and as a multiple of
 * the embedded one's, requests/s, p99, and the CPU per request of Redis and
 * PostgreSQL beside it. Writes .tmp/bench-scale.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrimaryAndReplica } from '../services/pgReplica.js';
import { freePort, projectRoot } from '../tools.js';
import {
  combine,
  cpuSecondsOfProcesses,
  cpuSecondsSince,
  load,
  startScript,
  stop,
  waitFor,
  type Measurement,
  type Server,
} from './harness.js';
import { buildServer, COMPILED_ENTRY, serverEnv } from './project.js';
import { consoleRows, markdownTable, type Row } from './report.js';

const duration = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOOKUP = '/v3/profiles/alex';

const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const children: ChildProcess[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});

async function startRedis(): Promise<string> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  children.push(child);
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      const { Redis } = await import('ioredis');
      const probe = new Redis(port, '127.0.0.1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => {});
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return `redis://127.0.0.1:${port}`;
    } catch {
      // not up yet
    }
  }
  throw new Error('redis-server did not start');
}

async function startProject(name: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const { DATABASE_URL, ...rest } = env;
  const child = startScript(COMPILED_ENTRY, { ...serverEnv(port, DATABASE_URL!), ...rest });
  children.push(child);
  const server = { name, child, base: `http://127.0.0.1:${port}` };
  await waitFor(`${server.base}${LOOKUP}`, { status: 200, timeoutMs: 60_000 });
  return server;
}

const pair = await startPrimaryAndReplica({ logStatements: false });
try {
  console.error('compiling the server (npm run build:server)');
  buildServer();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const redisUrl = await startRedis();
  const otlp = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const schema = { DATABASE_SCHEMA: `bench_scale_${process.pid}` };
  const configurations: { name: string; env: Record<string, string> }[] = [
    {
      name: '**embedded SQLite** (limits in the process)',
      env: { DATABASE_URL: `sqlite:${join(dir, 'embedded.db')}` },
    },
    { name: 'SQLite, limits in Redis', env: { DATABASE_URL: `sqlite:${join(dir, 'redis.db')}`, REDIS_URL: redisUrl } },
    {
      name: 'PostgreSQL + Redis (production)',
      env: { DATABASE_URL: pair.primaryUrl, ...schema, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: 'p' },
    },
    {
      name: 'PostgreSQL + Redis, reads from a replica',
      env: {
        DATABASE_URL: pair.primaryUrl,
        ...schema,
        DATABASE_READ_URL: pair.replicaUrl,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: 'r',
      },
    },
    {
      name: 'PostgreSQL + Redis, tracing on (OTLP/HTTP)',
      env: {
        DATABASE_URL: pair.primaryUrl,
        ...schema,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: 't',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
      },
    },
    {
      name: 'PostgreSQL + Redis, lookup cache off (every lookup reads the store)',
      env: {
        DATABASE_URL: pair.primaryUrl,
        ...schema,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: 'c',
        PROFILE_LOOKUP_CACHE_MS: '0',
      },
    },
    {
      name: 'PostgreSQL + Redis, lookup cache off, reads from a replica',
      env: {
        DATABASE_URL: pair.primaryUrl,
        ...schema,
        DATABASE_READ_URL: pair.replicaUrl,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: 'd',
        PROFILE_LOOKUP_CACHE_MS: '0',
      },
    },
  ];
  const servers: Server[] = [];
  for (const configuration of configurations) servers.push(await startProject(configuration.name, configuration.env));
  for (const server of servers) await load(server, { path: LOOKUP, connections, duration: 1 });

  const runs = new Map<string, { measured: Measurement[]; redis: number[]; postgres: number[] }>(
    servers.map((s) => [s.name, { measured: [], redis: [], postgres: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < servers.length; i++) {
      const server = servers[(i + round) % servers.length]!;
      console.error(`round ${round + 1}/${rounds}: ${server.name}`);
      const before = { redis: cpuSecondsOfProcesses('redis-server'), postgres: cpuSecondsOfProcesses('postgres') };
      const measured = await load(server, { path: LOOKUP, connections, duration });
      const run = runs.get(server.name)!;
      run.measured.push(measured);
      run.redis.push((cpuSecondsSince(before.redis, cpuSecondsOfProcesses('redis-server')) * 1e6) / measured.requests);
      run.postgres.push(
        (cpuSecondsSince(before.postgres, cpuSecondsOfProcesses('postgres')) * 1e6) / measured.requests,
      );
    }
  }
  const baseline = combine(runs.get(servers[0]!.name)!.measured).cpuMicros;
  const rows: Row[] = servers.map((server) => {
    const run = runs.get(server.name)!;
    const combined = combine(run.measured);
    const beside = [
      `Redis ${Math.min(...run.redis).toFixed(1)} µs`,
      `PostgreSQL ${Math.min(...run.postgres).toFixed(1)} µs`,
    ].join(', ');
    return {
      row: server.name,
      cpuMicros: combined.cpuMicros,
      ratio: combined.cpuMicros / baseline,
      rps: combined.rps,
      p99: combined.p99,
      errors: combined.errors,
      note: `beside it, a request: ${beside}`,
    };
  });
  console.table(consoleRows(rows));
  const markdown = [
    markdownTable(rows).replace('× best peer', '× embedded'),
    '',
    `${rounds} alternating rounds of ${duration} s per configuration, ${connections} connections, anonymous \`GET ${LOOKUP}\` over loopback, ` +
      `the compiled server; CPU: the server process's user + system time per request, the least of the rounds; Redis's and PostgreSQL's own processes' CPU per request beside it (all such processes on the machine); ` +
      `Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end.`,
  ].join('\n');
  console.log(`\n${markdown}`);
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  writeFileSync(join(projectRoot, '.tmp/bench-scale.md'), `${markdown}\n`);
} finally {
  await Promise.all(children.map((child) => stop(child)));
  receiver.close();
  await pair.close();
  rmSync(dir, { recursive: true, force: true });
}
