import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { entryPoint } from '../../support/processes.js';

/**
 * A setting the server cannot use stops start-up at once: exit status 1 and
 * one line on stderr naming the variable, before anything listens or any
 * store is opened. Never a silent fallback (an empty SQLite path used to
 * give a temporary database, gone at restart) and never a password echoed.
 */
function start(env: Record<string, string>, waitMs = 25_000): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const [command, args] = entryPoint('main');
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // Up and listening: nothing more to learn.
      if (stdout.includes('"listening"')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A server that started anyway is stopped, and fails the test below (its exit code is not 1).
    const timer = setTimeout(() => child.kill('SIGKILL'), waitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('start-up with a bad setting', () => {
  it.each([
    ['an empty SQLite path', { DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    ['a blank SQLite path', { DATABASE_URL: 'sqlite:  ' }, 'DATABASE_URL'],
    ['another database', { DATABASE_URL: 'mysql://db.example.com/app' }, 'DATABASE_URL'],
    ['a PostgreSQL URL without a server', { DATABASE_URL: 'postgres://app:s3cret-pw@/app' }, 'DATABASE_URL'],
    ['a Redis URL without scheme', { REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    ['a Redis Cluster seed without a port', { REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1' }, 'REDIS_CLUSTER_NODES'],
    ['read replicas that are no PostgreSQL URLs', { DATABASE_READ_URL: 'mysql://replica.example.com/app' }, 'DATABASE_READ_URL'],
    ['read replicas of an SQLite store', { DATABASE_READ_URL: 'postgres://replica.example.com/app' }, 'DATABASE_READ_URL'],
    ['one Redis and a Redis Cluster at once', { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' }, 'REDIS_CLUSTER_NODES'],
    ['a public URL that is no URL', { PUBLIC_URL: 'example dot com' }, 'PUBLIC_URL'],
    ['a port that is no number', { PORT: '80a' }, 'PORT'],
    ['a port out of range', { PORT: '70000' }, 'PORT'],
    ['a timeout that is no number', { STORE_TIMEOUT_MS: 'five seconds' }, 'STORE_TIMEOUT_MS'],
    ['a flag that is neither true nor false', { TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['metrics on the API port', { PORT: '18099', METRICS_PORT: '18099' }, 'METRICS_PORT'],
    ['a PostgreSQL schema for SQLite', { DATABASE_URL: 'sqlite::memory:', DATABASE_SCHEMA: 'app' }, 'DATABASE_SCHEMA'],
    ['proxy hops without a trusted proxy', { TRUST_PROXY_HOPS: '2' }, 'TRUST_PROXY_HOPS'],
  ])('%s: exits 1 with one line naming %s', async (_case, env, variable) => {
    const { code, stderr, stdout } = await start({ DATABASE_URL: 'sqlite::memory:', ...env });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.trim());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^configuration error: /);
    expect(lines[0]).toContain(variable);
    expect(stderr).not.toContain('s3cret-pw');
    expect(stdout).not.toContain('listening');
  });

  it('starts with good settings (the control)', async () => {
    const { code, stdout } = await start({ DATABASE_URL: 'sqlite::memory:', PORT: '0' }, 25_000);
    // Killed once it said it was listening.
    expect(stdout).toContain('"listening"');
    expect(code).toBeNull();
  }, 30_000);
});
