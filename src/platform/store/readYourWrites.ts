import { AsyncLocalStorage } from 'node:async_hooks';
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { growingToEntries } from './growingLru.js';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { RedisClient } from './redis.js';

/**
 * The write position a request's reads must have seen: set while a caller's
 * request runs after that caller wrote (see `ReadYourWrites`). The read
 * replicas' router (`replicas.ts`) sends a read under a floor only to a
 * replica known to have replayed past it, else to the primary.
 */
export const readFloor = new AsyncLocalStorage<number>();

/**
 * Read-your-writes with read replicas: after a caller (one credential: a
 * token, a session, a key) writes, the primary's write-ahead-log position,
 * read after the commit, is kept for the caller for `windowMs`; the caller's
 * reads in that window carry it as their floor (`readFloor`), so none of
 * them reads from a replica that has not replayed the write. The positions
 * are kept in Redis when one is configured, so the caller's next request
 * sees its write on whichever instance it reaches; without Redis, in this
 * process (one instance). Redis not answering a read of the position sends
 * that caller's read to the primary: never a stale read for want of Redis.
 * Why the primary and not a wait for the replica: docs/decisions/read-your-writes.md.
 */
export interface ReadYourWrites {
  /** The caller's floor, if it wrote within the window (a promise while Redis is asked). */
  floorOf(caller: string): number | undefined | Promise<number | undefined>;
  /** The caller has just written (and committed): keeps the primary's position now as its floor. */
  wrote(caller: string): Promise<void>;
}

/** The primary's position in its write-ahead log, read after a commit: a replica that has replayed this far holds the write. */
const CURRENT_POSITION = `select (pg_current_wal_insert_lsn() - '0/0')::float8 as lsn`;

/** Sets the caller's floor unless a higher one is kept (two writes finishing out of order), for the window. */
const KEEP_HIGHEST = `
  local kept = redis.call('GET', KEYS[1])
  if (not kept) or tonumber(kept) < tonumber(ARGV[1]) then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  end
  return 1`;

/** The name a caller is kept under: a hash of its credential (a secret is never stored as it is). */
export function callerOf(credential: string): string {
  return hash('sha256', credential, 'base64url');
}

export function createReadYourWrites(options: {
  primary: pg.Pool;
  redis?: RedisClient;
  keyPrefix: string;
  windowMs: number;
  logger: Logger;
}): ReadYourWrites {
  const { primary, redis, keyPrefix, windowMs, logger } = options;
  const local = new LRUCache<string, number>({ ...growingToEntries(100_000), ttl: windowMs });
  const keyOf = (caller: string) => `${keyPrefix}:ryw:${caller}`;
  let warned = false;
  const warnOnce = (reason: string) => {
    if (warned) return;
    warned = true;
    logger.warn({ reason }, 'read-your-writes positions unavailable in Redis; those callers read from the primary');
  };
  return {
    floorOf(caller) {
      const kept = local.get(caller);
      if (!redis) return kept;
      return redis.get(keyOf(caller)).then(
        (value) => {
          warned = false;
          const shared = value === null ? undefined : Number(value);
          return kept === undefined ? shared : Math.max(kept, shared ?? 0);
        },
        (error: Error) => {
          warnOnce(error.message);
          return Number.POSITIVE_INFINITY; // unknown: the primary answers
        },
      );
    },
    async wrote(caller) {
      let lsn: number;
      try {
        const { rows } = await primary.query<{ lsn: number }>(CURRENT_POSITION);
        lsn = Number(rows[0]!.lsn);
      } catch (error) {
        // The write is committed and its answer must go; without its position, this instance reads the caller's next reads from the primary.
        logger.warn({ reason: (error as Error).message }, 'could not read the write position after a write');
        local.set(caller, Number.POSITIVE_INFINITY);
        return;
      }
      local.set(caller, Math.max(lsn, local.get(caller) ?? 0));
      if (!redis) return;
      try {
        await redis.eval(KEEP_HIGHEST, 1, keyOf(caller), String(lsn), String(windowMs));
      } catch (error) {
        // This instance still remembers it; another one may read from a replica behind it for up to the lag bound.
        warnOnce((error as Error).message);
      }
    },
  };
}
