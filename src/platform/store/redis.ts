import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface SharedRedis {
  client: Redis;
  /** Throws when Redis does not answer a PING. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to the Redis that several instances share (`REDIS_URL`). Commands
 * fail fast while it is unreachable (no offline queue, a command timeout),
 * so a caller can fall back at once instead of hanging; the client keeps
 * reconnecting in the background. Losing and regaining Redis is logged once
 * each way, not once per request. Resolves once connected, or after
 * `timeoutMs` if Redis is unreachable at start-up (the instance then starts
 * with local counters rather than not at all).
 */
export async function connectRedis(url: string, logger: Logger, timeoutMs: number): Promise<SharedRedis> {
  // Loaded only when Redis is configured: an instance without it does not spend start-up on the client.
  const { Redis: RedisClient } = await import('ioredis');
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
  let healthy = true;
  const lost = (reason: string) => {
    if (!healthy) return;
    healthy = false;
    logger.warn({ reason }, 'redis unavailable; rate limits fall back to local counters');
  };
  client.on('error', (error: Error) => lost(error.message));
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
