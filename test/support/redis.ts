import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './processes.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (as a crash would: no save, no goodbye). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** The Redis server binary the scale tests start (`REDIS_SERVER_BIN`, default `redis-server` on the PATH). */
const redisServerBin = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/** Fails the run at once, naming the variable to set, when the Redis server binary cannot be run. */
export function requireRedisServer(): void {
  const probe = spawnSync(redisServerBin, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(
      `The tests start their own Redis servers with "${redisServerBin}", which cannot be run (${probe.error?.message ?? probe.stderr.trim()}). ` +
        'Install Redis (see the README, "Requirements") or set REDIS_SERVER_BIN to its redis-server binary.',
    );
  }
}

/** A Redis server of the test's own on a free loopback port, so it can be stopped and started. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(redisServerBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const probe = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => {});
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch {
        probe.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    probe.disconnect();
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
  };
}
