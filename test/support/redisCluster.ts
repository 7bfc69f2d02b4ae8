import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './processes.js';

/** A Redis Cluster of the test's own: three masters on free loopback ports, no replicas. */
export interface RedisCluster {
  /** `host:port` of every master, comma-separated: what `REDIS_CLUSTER_NODES` takes. */
  nodes: string;
  ports: number[];
  /** Kills master `index` (as a crash would). */
  stop(index: number): Promise<void>;
  /** Starts master `index` again with the identity it had, and waits until the cluster covers every slot again. */
  start(index: number): Promise<void>;
  /** Keys held by each master. */
  keysPerMaster(): Promise<number[]>;
  /** Closes every client connection of the running masters (`CLIENT KILL TYPE normal`): their clients must reconnect. */
  dropClients(): Promise<void>;
  close(): Promise<void>;
}

const redisServerBin = process.env.REDIS_SERVER_BIN ?? 'redis-server';
/** `redis-cli` beside the server binary that `REDIS_SERVER_BIN` names, else the one on the PATH. */
const redisCliBin = process.env.REDIS_SERVER_BIN
  ? join(dirname(process.env.REDIS_SERVER_BIN), 'redis-cli')
  : 'redis-cli';

const client = (port: number) => {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  return redis;
};

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis Cluster: ${what} did not happen within ${timeoutMs} ms`);
}

async function clusterState(port: number): Promise<string> {
  const redis = client(port);
  try {
    await redis.connect();
    const info = await redis.cluster('INFO');
    return /cluster_state:(\w+)/.exec(String(info))?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts three `redis-server --cluster-enabled yes` masters (each with its
 * node file in a temporary folder, so a killed master restarts as itself,
 * and a short node timeout, so the cluster notices a failure within a
 * second or two), joins them with `redis-cli --cluster create`, and waits
 * until every node says the cluster is ok.
 */
export async function startRedisCluster(
  options: {
    /**
     * `cluster-require-full-coverage`: with `false` the masters still up go
     * on serving (and say `cluster_state:ok`) while another is down.
     */
    fullCoverage?: boolean;
  } = {},
): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const ports: number[] = [];
  const busPorts: number[] = [];
  for (let i = 0; i < 3; i++) {
    ports.push(await freePort());
    busPorts.push(await freePort());
  }
  const children: (ChildProcess | undefined)[] = [];
  const start = async (index: number) => {
    const port = ports[index]!;
    children[index] = spawn(
      redisServerBin,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPorts[index]),
        '--cluster-node-timeout',
        '1000',
        '--cluster-require-full-coverage',
        options.fullCoverage === false ? 'no' : 'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    await until(`node ${port} answering`, async () => {
      const redis = client(port);
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG';
      } finally {
        redis.disconnect();
      }
    });
  };
  /** A killed child has a `signalCode`, not an `exitCode`. */
  const alive = (index: number) => children[index]?.exitCode === null && children[index]?.signalCode === null;
  const stop = async (index: number) => {
    const running = children[index];
    if (!running || !alive(index)) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  const allOk = () =>
    until('cluster_state:ok on every node', async () =>
      (await Promise.all(ports.map(clusterState))).every((s) => s === 'ok'),
    );

  await Promise.all(ports.map((_, index) => start(index)));
  const created = spawnSync(
    redisCliBin,
    ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`);
  await allOk();

  return {
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    ports,
    stop,
    async start(index) {
      await start(index);
      await allOk();
    },
    async keysPerMaster() {
      return Promise.all(
        ports.map(async (port) => {
          const redis = client(port);
          try {
            await redis.connect();
            return await redis.dbsize();
          } finally {
            redis.disconnect();
          }
        }),
      );
    },
    async dropClients() {
      const running = ports.filter((_, index) => alive(index));
      await Promise.all(
        running.map(async (port) => {
          const redis = client(port);
          try {
            await redis.connect();
            await redis.call('CLIENT', 'KILL', 'TYPE', 'normal');
          } finally {
            redis.disconnect();
          }
        }),
      );
    },
    async close() {
      await Promise.all(ports.map((_, index) => stop(index)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
