import { duplicateClient, type RedisClient } from './redis.js';
import type { Logger } from 'pino';

/**
 * News that something an instance may keep in memory has changed in the
 * store (a topic such as `api-keys`), for the caches in front of it. This
 * instance's listeners hear it at once; where Redis is configured every other
 * instance hears it through Redis pub/sub within moments. A message can be
 * lost (Redis down, a reconnection), so a cache must still expire on its own:
 * the bus shortens the bound, it is not the bound. When the subscription
 * comes back after a loss, every listener hears of every topic, since
 * anything may have changed meanwhile.
 */
export interface ChangeBus {
  /** Tells every instance that `topic` changed. Never throws. */
  publish(topic: string): void;
  subscribe(topic: string, listener: () => void): void;
  close(): Promise<void>;
}

export function createChangeBus(options: { redis?: RedisClient; channel: string; logger: Logger }): ChangeBus {
  const listeners = new Map<string, (() => void)[]>();
  const tell = (topic: string) => {
    for (const listener of listeners.get(topic) ?? []) listener();
  };
  const tellAll = () => {
    for (const topic of listeners.keys()) tell(topic);
  };
  const { redis, channel, logger } = options;
  // A subscribed connection can do nothing else, so it is one of its own.
  const subscriber = redis && duplicateClient(redis);
  if (subscriber) {
    let subscribedBefore = false;
    subscriber.on('error', () => {}); // the shared client reports Redis outages once; this one stays quiet
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (subscribedBefore) tellAll();
          subscribedBefore = true;
        },
        (error: Error) => logger.warn({ reason: error.message }, 'could not subscribe to store changes'),
      );
    });
    subscriber.on('message', (_channel: string, topic: string) => tell(topic));
  }
  return {
    publish(topic) {
      tell(topic);
      redis?.publish(channel, topic).catch((error: Error) => {
        logger.warn(
          { reason: error.message, topic },
          'could not announce a store change; other instances see it when their caches expire',
        );
      });
    },
    subscribe(topic, listener) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
