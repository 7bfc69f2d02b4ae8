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

/** A free loopback port (the OS picks it). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

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
