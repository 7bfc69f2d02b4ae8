import type { Cluster, Command, Redis } from 'ioredis';
import type { Logger } from 'pino';

/** The Redis that instances share: one server (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`). */
export type RedisClient = Redis | Cluster;

/** Where the shared Redis is: a `redis://` URL, or the seed nodes of a cluster. */
export type RedisTarget = string | readonly { host: string; port: number }[];

/** A second connection to the same Redis (a subscribed connection can do nothing else). */
export function duplicateClient(client: RedisClient): RedisClient {
  return isCluster(client) ? client.duplicate() : client.duplicate();
}

const isCluster = (client: RedisClient): client is Cluster => (client as Cluster).isCluster === true;

export interface SharedRedis {
  client: RedisClient;
  /** Throws when Redis does not answer a PING. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to the Redis that several instances share. Commands fail fast
 * while it is unreachable (no offline queue, a command timeout), so a caller
 * can fall back at once instead of hanging; the client keeps reconnecting in
 * the background. Losing and regaining Redis is logged once each way, not
 * once per request. Resolves once connected, or after `timeoutMs` if Redis
 * is unreachable at start-up (the instance then starts with local counters
 * rather than not at all). A cluster is reached through ioredis's cluster
 * client: each key goes to the master that owns its slot; a master that is
 * down (or a cluster without full slot coverage) fails the commands of its
 * keys, which fall back as above until the cluster is whole again.
 */
export async function connectRedis(
  target: RedisTarget,
  logger: Logger,
  timeoutMs: number,
  /** Runs each command under a span of its own (tracing on). */
  traceCommand?: <T>(name: string, run: () => Promise<T>) => Promise<T>,
): Promise<SharedRedis> {
  // Loaded only when Redis is configured: an instance without it does not spend start-up on the client.
  const { Redis: RedisServerClient, Cluster: RedisClusterClient } = await import('ioredis');
  const reconnect = (attempt: number) => Math.min(attempt * 200, 2000);
  // Auto-pipelining sends the commands of one event-loop turn in one write: less CPU here and in Redis (docs/performance.md).
  const commandOptions = {
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    enableAutoPipelining: true,
  };
  const client: RedisClient =
    typeof target === 'string'
      ? new RedisServerClient(target, {
          ...commandOptions,
          enableOfflineQueue: false,
          retryStrategy: reconnect,
          lazyConnect: false,
        })
      : new RedisClusterClient([...target], {
          enableOfflineQueue: false,
          clusterRetryStrategy: reconnect,
          // A command whose slot moved or whose master is failing is not retried: it falls back at once.
          maxRedirections: 2,
          retryDelayOnClusterDown: 0,
          retryDelayOnTryAgain: 0,
          slotsRefreshTimeout: timeoutMs,
          redisOptions: commandOptions,
        });
  if (traceCommand) {
    // Every command goes through sendCommand: one span each, ended when its answer (or failure) comes.
    const send: (command: Command, ...rest: never[]) => unknown = client.sendCommand.bind(client);
    Object.assign(client, {
      sendCommand: (command: Command, ...rest: never[]) =>
        traceCommand(`redis ${command.name}`, async () => send(command, ...rest)),
    });
  }
  let healthy = true;
  const lost = (reason: string) => {
    if (!healthy) return;
    healthy = false;
    logger.warn({ reason }, 'redis unavailable; rate limits fall back to local counters');
  };
  client.on('error', (error: Error) => lost(error.message));
  client.on('node error', (error: Error) => lost(error.message));
  client.on('close', () => lost('connection closed'));
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger.info('redis is back; rate limits are shared again');
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    client,
    async ping() {
      await client.ping();
    },
    async close() {
      healthy = false; // a deliberate disconnect is not an outage
      client.disconnect();
    },
  };
}
