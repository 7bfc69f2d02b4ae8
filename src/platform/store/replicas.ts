import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import type { Logger } from 'pino';
import type pg from 'pg';
import { readFloor } from './readYourWrites.js';

/** What the read pool knows of one replica. */
export interface ReplicaState {
  /** The replica's address, without credentials. */
  name: string;
  /** Answering, streaming from the primary, and no further behind than the bound. */
  inUse: boolean;
  /** How far behind the primary it was at the last check, in milliseconds (undefined: not answering, or not yet caught up with the first check). */
  lagMs: number | undefined;
  /** The write-ahead-log position it had replayed at the last check (0: unknown). */
  replayed: number;
}

export interface ReadReplicas<DB> {
  /**
   * Reads go here: a replica in use (in turn), else the primary. A read
   * under a floor (`readFloor`: the caller wrote a moment ago) goes only to
   * a replica known to have replayed past it, else to the primary.
   */
  db: Kysely<DB>;
  states(): ReplicaState[];
  close(): Promise<void>;
}

/** The primary's position in its write-ahead log, as far as flushed (what a replica can have received), in bytes. */
const PRIMARY_POSITION = `select (pg_current_wal_flush_lsn() - '0/0')::float8 as lsn`;

/** A replica's state: still a replica, streaming from the primary, and how far it has replayed. */
const REPLICA_POSITION = `
  select pg_is_in_recovery() as recovering,
         exists (select 1 from pg_stat_wal_receiver where status = 'streaming') as streaming,
         (pg_last_wal_replay_lsn() - '0/0')::float8 as lsn`;

/** A failure of the connection (the replica stopped, restarted or is unreachable), not of the statement. */
function connectionFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && /^(08|57P0)/.test(code)) return true; // connection exception, admin/crash shutdown
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code))
    return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
    message ?? '',
  );
}

/**
 * PostgreSQL read replicas (`DATABASE_READ_URL`) for the hot reads that may
 * be a moment stale. Each replica is checked every `checkMs`; one that does
 * not answer, is not streaming, or lags more than `maxLagMs` is left out
 * until a check finds it well again, and reads go to the primary meanwhile.
 * A read whose replica fails under it (stopped between two checks) is run
 * again on the primary at once, and the replica is left out: no read is
 * refused because a replica went away. Only single read statements are
 * sent here, never a transaction or a write. A replica is first used once
 * it has replayed what the primary had written at the first check: before
 * that its lag is unknown, however fresh the history.
 */
export function openReadReplicas<DB>(options: {
  urls: readonly string[];
  primary: pg.Pool;
  makePool: (url: string) => pg.Pool;
  maxLagMs: number;
  checkMs: number;
  logger: Logger;
  /** The primary's statement log (store errors, tracing), for the reads made here too. */
  log?: (event: LogEvent) => void;
}): ReadReplicas<DB> {
  const replicas = options.urls.map((url) => ({
    name: redactedUrl(url),
    pool: options.makePool(url),
    inUse: false,
    lagMs: undefined as number | undefined,
    replayed: 0,
  }));
  let turn = 0;
  /** A replica in use, in turn; under a floor, only one that has replayed past it. */
  const pick = (floor: number | undefined) => {
    const usable = replicas.filter((replica) => replica.inUse && (floor === undefined || replica.replayed >= floor));
    return usable.length ? usable[turn++ % usable.length] : undefined;
  };
  const leaveOut = (replica: (typeof replicas)[number], reason: string) => {
    if (replica.inUse)
      options.logger.warn({ replica: replica.name, reason }, 'read replica left out; reads go to the primary');
    replica.inUse = false;
  };

  /**
   * The primary's write position at each check, for as long as the bound
   * looks back: a replica's lag is how long ago the primary first wrote past
   * what the replica has replayed (0 when it has replayed everything the
   * primary had written at the last check). Timing the replayed position
   * against the primary's, not against the last replayed transaction's
   * time, keeps an idle replica from looking late the moment a write comes.
   */
  const history: { at: number; lsn: number }[] = [];
  /** The first sample stays in the history until a later one is past the bound: behind it, a lag is unknown. */
  let first: { at: number; lsn: number } | undefined;
  const lagOf = (replayed: number, now: number): number | undefined => {
    const passed = history.find((sample) => sample.lsn > replayed);
    if (!passed) return 0;
    if (passed === first) return undefined;
    return now - passed.at;
  };

  const check = async (replica: (typeof replicas)[number], now: number) => {
    try {
      const { rows } = await replica.pool.query<{ recovering: boolean; streaming: boolean; lsn: number | null }>(
        REPLICA_POSITION,
      );
      const { recovering, streaming, lsn } = rows[0]!;
      replica.replayed = Number(lsn ?? 0);
      replica.lagMs = lagOf(replica.replayed, now);
      if (!recovering) return leaveOut(replica, 'not a replica (promoted?)');
      if (!streaming) return leaveOut(replica, 'not streaming from the primary');
      if (replica.lagMs === undefined) return leaveOut(replica, 'catching up with the primary');
      if (replica.lagMs > options.maxLagMs) return leaveOut(replica, `lagging ${Math.round(replica.lagMs)} ms`);
      if (!replica.inUse) options.logger.info({ replica: replica.name }, 'read replica in use');
      replica.inUse = true;
    } catch (error) {
      replica.lagMs = undefined;
      replica.replayed = 0;
      leaveOut(replica, (error as Error).message);
    }
  };
  const checkAll = async () => {
    const now = Date.now();
    try {
      const { rows } = await options.primary.query<{ lsn: number }>(PRIMARY_POSITION);
      history.push({ at: now, lsn: Number(rows[0]!.lsn) });
      first ??= history[0];
    } catch {
      return; // the primary is down: nothing answers writes anyway; judge the replicas when it is back
    }
    // Samples older than the bound (but the newest such one) cannot change a verdict.
    while (history.length > 1 && history[1]!.at < now - options.maxLagMs * 2) history.shift();
    await Promise.all(replicas.map((replica) => check(replica, now)));
  };
  let checking: Promise<unknown> | undefined = checkAll().finally(() => (checking = undefined));
  const timer = setInterval(() => {
    // A check that waits on a hung replica is not overlapped by the next one.
    checking ??= checkAll().finally(() => (checking = undefined));
  }, options.checkMs);
  timer.unref();

  /** A pool as Kysely's PostgreSQL dialect uses one: each client it lends is a replica's, or the primary's. */
  const routingPool = {
    async connect() {
      const replica = pick(readFloor.getStore());
      if (!replica) return options.primary.connect();
      let client: pg.PoolClient;
      try {
        client = await replica.pool.connect();
      } catch (error) {
        leaveOut(replica, (error as Error).message);
        return options.primary.connect();
      }
      return readClient(client, replica);
    },
    async end() {},
  };

  /** A replica's client whose failed connection runs the statement again on the primary. */
  const readClient = (client: pg.PoolClient, replica: (typeof replicas)[number]) => ({
    async query(sql: string, parameters: unknown[]) {
      try {
        return await client.query(sql, parameters);
      } catch (error) {
        if (!connectionFailure(error)) throw error;
        leaveOut(replica, (error as Error).message);
        return options.primary.query(sql, parameters);
      }
    },
    release(error?: Error | boolean) {
      client.release(error);
    },
  });

  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: routingPool as unknown as pg.Pool }),
    log: options.log,
  });
  return {
    db,
    states: () => replicas.map(({ name, inUse, lagMs, replayed }) => ({ name, inUse, lagMs, replayed })),
    async close() {
      clearInterval(timer);
      await checking?.catch(() => {});
      await Promise.all(replicas.map((replica) => replica.pool.end()));
    },
  };
}

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  parsed.username = '';
  return parsed.toString();
}
