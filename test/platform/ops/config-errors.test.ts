// @store-independent
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../src/app.js';
import { ConfigError } from '../../../src/platform/config.js';
import { projectRoot } from '../../../scripts/tools.js';
import { entryPoint } from '../../support/processes.js';

/**
 * A setting the server cannot use stops start-up at once: exit status 1 and
 * one line on stderr naming the variable, before anything listens or any
 * store is opened. Never a silent fallback (an empty SQLite path used to
 * give a temporary database, gone at restart) and never a password echoed.
 *
 * Every case is checked on the configuration reader the server calls first
 * (`configFromEnv`); a few also start the server, which proves what the
 * process makes of such an error (the exit status and the one line).
 */
const BASE_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  SEED_DEMO_DATA: 'false',
  DATABASE_URL: 'sqlite::memory:',
};

function start(
  env: Record<string, string>,
  waitMs = 25_000,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const [command, args] = entryPoint('main');
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', ...BASE_ENV, ...env },
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

/** The configuration error `env` gives (over the server's environment in these tests), or what was read instead. */
function configErrorOf(env: Record<string, string>): unknown {
  try {
    return configFromEnv({ ...BASE_ENV, ...env });
  } catch (error) {
    return error;
  }
}

describe('a bad setting is a configuration error naming the variable', () => {
  it.each([
    ['an empty SQLite path', 'DATABASE_URL', { DATABASE_URL: 'sqlite:' }],
    ['a blank SQLite path', 'DATABASE_URL', { DATABASE_URL: 'sqlite:  ' }],
    ['another database', 'DATABASE_URL', { DATABASE_URL: 'mysql://db.example.com/app' }],
    ['a PostgreSQL URL without a server', 'DATABASE_URL', { DATABASE_URL: 'postgres://app:s3cret-pw@/app' }],
    ['a Redis URL without scheme', 'REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['a Redis Cluster seed without a port', 'REDIS_CLUSTER_NODES', { REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1' }],
    [
      'read replicas that are no PostgreSQL URLs',
      'DATABASE_READ_URL',
      { DATABASE_READ_URL: 'mysql://replica.example.com/app' },
    ],
    [
      'read replicas of an SQLite store',
      'DATABASE_READ_URL',
      { DATABASE_READ_URL: 'postgres://replica.example.com/app' },
    ],
    [
      'one Redis and a Redis Cluster at once',
      'REDIS_CLUSTER_NODES',
      { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' },
    ],
    ['a public URL that is no URL', 'PUBLIC_URL', { PUBLIC_URL: 'example dot com' }],
    ['a port that is no number', 'PORT', { PORT: '80a' }],
    ['a port out of range', 'PORT', { PORT: '70000' }],
    ['a timeout that is no number', 'STORE_TIMEOUT_MS', { STORE_TIMEOUT_MS: 'five seconds' }],
    ['a flag that is neither true nor false', 'TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['an unknown log level', 'LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['metrics on the API port', 'METRICS_PORT', { PORT: '18099', METRICS_PORT: '18099' }],
    ['a PostgreSQL schema for SQLite', 'DATABASE_SCHEMA', { DATABASE_URL: 'sqlite::memory:', DATABASE_SCHEMA: 'app' }],
    ['proxy hops without a trusted proxy', 'TRUST_PROXY_HOPS', { TRUST_PROXY_HOPS: '2' }],
    ['production without a mail server (links would be logged)', 'SMTP_URL', { NODE_ENV: 'production' }],
    ['production without a mail server: the way to choose the log', 'MAIL_TO_LOG', { NODE_ENV: 'production' }],
    [
      'a mail server and the log at once',
      'MAIL_TO_LOG',
      { SMTP_URL: 'smtp://mailer:s3cret-pw@mail.example.com', MAIL_TO_LOG: 'true' },
    ],
    ['a log flag that is neither true nor false', 'MAIL_TO_LOG', { MAIL_TO_LOG: 'please' }],
    [
      'production with the development counter key secret',
      'COUNTER_KEY_SECRET',
      { NODE_ENV: 'production', MAIL_TO_LOG: 'true' },
    ],
    ['a counter key secret too short to be one', 'COUNTER_KEY_SECRET', { COUNTER_KEY_SECRET: 'short' }],
  ])('%s: names %s', (_case, variable, env) => {
    const error = configErrorOf(env);
    expect(error).toBeInstanceOf(ConfigError);
    const { message } = error as ConfigError;
    expect(message).toContain(variable);
    expect(message).not.toContain('s3cret-pw');
  });

  it('the same environment with good settings reads (the control)', () => {
    expect(configErrorOf({})).not.toBeInstanceOf(Error);
  });

  it('production starts with a mail server, or with MAIL_TO_LOG said out loud (the controls)', () => {
    const secret = { COUNTER_KEY_SECRET: 'a production secret of at least 32 characters' };
    expect(
      configErrorOf({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com', ...secret }),
    ).not.toBeInstanceOf(Error);
    expect(configErrorOf({ NODE_ENV: 'production', MAIL_TO_LOG: 'true', ...secret })).toMatchObject({
      developer: { mailToLog: true },
      production: true,
    });
  });
});

describe('start-up with a bad setting', () => {
  it.each([
    [
      'a PostgreSQL URL without a server, with a password',
      'DATABASE_URL',
      { DATABASE_URL: 'postgres://app:s3cret-pw@/app' },
    ],
    ['metrics on the API port (settings that conflict)', 'METRICS_PORT', { PORT: '18099', METRICS_PORT: '18099' }],
    ['production without a mail server', 'MAIL_TO_LOG', { NODE_ENV: 'production' }],
  ])('%s: exits 1 with one line naming %s, before it listens', async (_case, variable, env) => {
    const { code, stderr, stdout } = await start(env);
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.trim());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^configuration error: /);
    expect(lines[0]).toContain(variable);
    expect(stderr).not.toContain('s3cret-pw');
    expect(stdout).not.toContain('listening');
  });

  it('starts with good settings (the control)', async () => {
    const { code, stdout } = await start({ PORT: '0' }, 25_000);
    // Killed once it said it was listening.
    expect(stdout).toContain('"listening"');
    expect(code).toBeNull();
  }, 30_000);
});
