import { spawn, type SpawnOptions } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The services whose contracts live in `openapi/<name>.yaml`: every such
 * file, in name order. A new contract is generated, linted, rendered and
 * mocked without naming it anywhere else.
 */
export const CONTRACTS: readonly string[] = readdirSync(`${projectRoot}openapi`)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.slice(0, -'.yaml'.length))
  .sort();

/**
 * The module the server starts as a worker thread (the password strength
 * estimator), and its bundle's name: every bundle of the server is written
 * with it beside it, and tells the code where (`BUNDLED_PASSWORD_WORKER`,
 * relative to the bundle).
 */
export const PASSWORD_WORKER = {
  name: 'passwordEstimatorWorker',
  source: 'src/services/developer/domain/passwordEstimatorWorker.ts',
} as const;

/**
 * Environment for the contract tools with every phone-home switched off
 * (Redocly telemetry and update notice, Prism's analytics); this machine
 * class has no outside network and they would hang.
 */
export const quietToolEnv: NodeJS.ProcessEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
};

/** Runs a project binary from node_modules/.bin and resolves with its exit code. */
export function run(bin: string, args: string[], options: SpawnOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${projectRoot}node_modules/.bin/${bin}`, args, {
      cwd: projectRoot,
      stdio: 'inherit',
      env: quietToolEnv,
      ...options,
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Ports handed out for servers that a child process (or a later `listen`)
 * binds: below the kernel's ephemeral range (32768 and up on Linux), so an
 * outgoing connection or another `listen(0)` cannot take one between the
 * check here and its use, and walked from a start that differs per process
 * (test workers run side by side), each checked free by binding it.
 */
const PORT_RANGE = { first: 20_000, size: 12_000 };
let nextPort = PORT_RANGE.first + ((process.pid * 7919) % PORT_RANGE.size);

const canBind = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A free loopback port for a server that will bind it (see PORT_RANGE above). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_RANGE.size; tries++) {
    const port = nextPort;
    nextPort = PORT_RANGE.first + ((nextPort - PORT_RANGE.first + 1) % PORT_RANGE.size);
    if (await canBind(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

/** Drops a PostgreSQL schema (a test's or the bench's own), with everything in it. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
