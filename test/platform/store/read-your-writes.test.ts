// @store-independent
import { sql } from 'kysely';
import { pino } from 'pino';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { callerOf, createReadYourWrites, readFloor } from '../../../src/platform/store/readYourWrites.js';
import { openReadReplicas, type ReadReplicas } from '../../../src/platform/store/replicas.js';
import type { RedisClient } from '../../../src/platform/store/redis.js';

/**
 * The pieces of read-your-writes on their own, over stand-in pools: the
 * replica router's choice under a floor, a replica's first use, and what a
 * caller's floor is when Redis or the primary fails. The whole, on a real
 * primary, a held replica and two instances, is in test/scale/read-replicas.test.ts.
 */
const logger = pino({ level: 'silent' });

/** A stand-in pg pool: answers the position queries from `state`, any other statement with one row; counts what it served. */
function standInPool(state: { lsn: number; fail?: boolean }) {
  const served = { statements: 0 };
  const answer = async (text: string) => {
    if (state.fail) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    if (/pg_last_wal_replay_lsn/.test(text)) return { rows: [{ recovering: true, streaming: true, lsn: state.lsn }] };
    if (/pg_current_wal/.test(text)) return { rows: [{ lsn: state.lsn }] };
    served.statements++;
    return { rows: [{ one: 1 }], command: 'SELECT', rowCount: 1 };
  };
  const pool = {
    query: answer,
    connect: async () => ({ query: answer, release() {} }),
    end: async () => {},
  };
  return { pool: pool as unknown as pg.Pool, served };
}

const waitFor = async (condition: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('the replica router', () => {
  let replicas: ReadReplicas<unknown> | undefined;
  afterEach(() => replicas?.close());

  const open = (primaryLsn: number, replicaLsn: number) => {
    const primary = standInPool({ lsn: primaryLsn });
    const replicaState = { lsn: replicaLsn };
    const replica = standInPool(replicaState);
    replicas = openReadReplicas({
      urls: ['postgres://replica/db'],
      primary: primary.pool,
      makePool: () => replica.pool,
      maxLagMs: 60_000,
      checkMs: 10,
      logger,
    });
    return { primary, replica, replicaState, replicas };
  };

  it('does not use a replica until it has replayed what the primary had written at the first check, however fresh the history', async () => {
    const { replicaState, replicas } = open(1000, 500);
    await waitFor(() => replicas.states()[0]!.replayed === 500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replicas.states()[0]).toMatchObject({ inUse: false, lagMs: undefined });
    replicaState.lsn = 1000;
    await waitFor(() => replicas.states()[0]!.inUse);
    expect(replicas.states()[0]).toMatchObject({ inUse: true, lagMs: 0, replayed: 1000 });
  });

  it('sends a read under a floor to the primary until the replica has replayed past it, and other reads to the replica', async () => {
    const { primary, replica, replicaState, replicas } = open(1000, 1000);
    await waitFor(() => replicas.states()[0]!.inUse);
    const read = () => sql`select 1 as one`.execute(replicas.db);

    await readFloor.run(1200, read);
    expect({ primary: primary.served.statements, replica: replica.served.statements }).toEqual({
      primary: 1,
      replica: 0,
    });
    await read();
    expect({ primary: primary.served.statements, replica: replica.served.statements }).toEqual({
      primary: 1,
      replica: 1,
    });

    replicaState.lsn = 1200;
    await waitFor(() => replicas.states()[0]!.replayed === 1200);
    await readFloor.run(1200, read);
    expect({ primary: primary.served.statements, replica: replica.served.statements }).toEqual({
      primary: 1,
      replica: 2,
    });
  });
});

describe("a caller's floor", () => {
  it('is the primary position read after its write, for the window, in this process without Redis', async () => {
    const primary = standInPool({ lsn: 4242 });
    const positions = createReadYourWrites({ primary: primary.pool, keyPrefix: 'test', windowMs: 100, logger });
    const caller = callerOf('Bearer secret-token');
    expect(positions.floorOf(caller)).toBeUndefined();
    await positions.wrote(caller);
    expect(positions.floorOf(caller)).toBe(4242);
    expect(positions.floorOf(callerOf('Bearer someone-else'))).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(positions.floorOf(caller)).toBeUndefined();
  });

  it('is never the credential itself: a hash of it', () => {
    expect(callerOf('Bearer secret-token')).not.toContain('secret');
    expect(callerOf('Bearer secret-token')).toBe(callerOf('Bearer secret-token'));
  });

  it('sends the caller to the primary when Redis does not answer (unknown, not stale)', async () => {
    const failing = {
      get: async () => Promise.reject(new Error('Connection is closed.')),
      eval: async () => Promise.reject(new Error('Connection is closed.')),
    };
    const positions = createReadYourWrites({
      primary: standInPool({ lsn: 1 }).pool,
      redis: failing as unknown as RedisClient,
      keyPrefix: 'test',
      windowMs: 1000,
      logger,
    });
    expect(await positions.floorOf(callerOf('x'))).toBe(Number.POSITIVE_INFINITY);
    // A write whose position cannot be shared is still answered.
    await expect(positions.wrote(callerOf('x'))).resolves.toBeUndefined();
  });

  it('is "the primary" in this process when the position cannot be read after a write, and the write is still answered', async () => {
    const positions = createReadYourWrites({
      primary: standInPool({ lsn: 1, fail: true }).pool,
      keyPrefix: 'test',
      windowMs: 1000,
      logger,
    });
    await expect(positions.wrote(callerOf('y'))).resolves.toBeUndefined();
    expect(positions.floorOf(callerOf('y'))).toBe(Number.POSITIVE_INFINITY);
  });
});
