import type { Cluster, Command, Redis } from 'ioredis';
import keySlot from 'cluster-key-slot';
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

/** How often an instance that lost Redis looks whether it is whole again. */
const LOOK_EVERY_MS = 1000;
/** Slots of a Redis Cluster: every key hashes to one of them. */
const CLUSTER_SLOTS = 16384;
/** Names tried for a key on each master: missing one by chance after this many is a 1 in e^64 event. */
const PROBE_NAMES = 1 << 20;

/**
 * Resolves when every key has a master that answers: a server's PING; for
 * a cluster, `cluster_state:ok` and, for each master that the client's slot
 * table names, a read of a key in its slots, sent the way the client sends
 * any command (so a master the client had dropped is found again, as a
 * request's would be). A cluster says `ok` for a while after a master dies
 * (the node timeout), or for as long as it is down without
 * `cluster-require-full-coverage`: only asking each master tells.
 */
async function whole(client: RedisClient, keyPrefix: string): Promise<void> {
  if (!isCluster(client)) {
    await client.ping();
    return;
  }
  const info = String(await client.cluster('INFO'));
  if (!/^cluster_state:ok\b/m.test(info)) throw new Error('the cluster does not say cluster_state:ok');
  const owners = new Set<string>();
  for (let slot = 0; slot < CLUSTER_SLOTS; slot++) {
    const owner = client.slots[slot]?.[0];
    if (owner === undefined) throw new Error(`slot ${slot} has no master`);
    owners.add(owner);
  }
  // A key for each master. Names hash evenly over the slots: a master of a single slot is found within about 16384 names.
  const probes = new Map<string, string>();
  for (let i = 0; probes.size < owners.size; i++) {
    if (i === PROBE_NAMES) throw new Error('no key name found for every master');
    const key = `${keyPrefix}:whole:${i}`;
    const owner = client.slots[keySlot(key)]![0]!;
    if (!probes.has(owner)) probes.set(owner, key);
  }
  await Promise.all([...probes.values()].map((key) => client.exists(key)));
}

export interface SharedRedis {
  client: RedisClient;
  /** Throws unless Redis is whole: the server answers a PING; for a cluster, every master that owns slots does. */
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
  /** The instances' key prefix (`REDIS_KEY_PREFIX`): the keys a cluster's look reads are under it. */
  keyPrefix: string,
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
  // Lost when the client reports a failure; back only when a look at the whole Redis passes (below).
  let healthy = true;
  let closing = false;
  let looking: NodeJS.Timeout | undefined;
  const look = () => {
    clearTimeout(looking);
    looking = undefined;
    if (healthy || closing) return;
    whole(client, keyPrefix).then(
      () => {
        if (healthy || closing) return;
        healthy = true;
        logger.info('redis is back; rate limits are shared again');
      },
      () => {
        // Looks may overlap (a reconnect starts one while another is out): whichever fails last schedules the one next look.
        clearTimeout(looking);
        if (!healthy && !closing) looking = setTimeout(look, LOOK_EVERY_MS).unref();
      },
    );
  };
  const lost = (reason: string) => {
    if (!healthy || closing) return;
    healthy = false;
    logger.warn({ reason }, 'redis unavailable; rate limits fall back to local counters');
    looking = setTimeout(look, LOOK_EVERY_MS).unref();
  };
  client.on('error', (error: Error) => lost(error.message));
  client.on('node error', (error: Error) => lost(error.message));
  client.on('close', () => lost('connection closed'));
  // A reconnected client is a reason to look at once, not proof: a cluster's client is ready while one of its masters is down.
  client.on('ready', look);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    client,
    ping: () => whole(client, keyPrefix),
    async close() {
      closing = true; // a deliberate disconnect is not an outage
      clearTimeout(looking);
      client.disconnect();
    },
  };
}
