import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startPrimaryAndReplica, type PrimaryAndReplica } from '../../scripts/services/pgReplica.js';
import { startServer, type TestServer } from '../support/server.js';
import { issueCredential, publishingToken } from '../support/credentials.js';
import { startRedis, type RedisServer } from '../support/redis.js';

/**
 * With DATABASE_READ_URL the hot reads (profile and avatar lookups, post reads and their meta links) go to a
 * PostgreSQL streaming replica, and everything else to the primary; a
 * replica that lags past REPLICA_MAX_LAG_MS or stops is left out, reads go
 * to the primary with none refused, and it is used again once well. Every
 * statement each server runs is in its log: that is how the tests see who
 * answered.
 */
let pair: PrimaryAndReplica;
let server: TestServer;
let call: typeof fetch;

const PROFILE_READ = /select .*from "profiles"/i;
const AVATAR_READ = /select "image" from "profile_avatars"/i;
const KEY_READ = /from "api_keys"/i;
const POST_READ = /from "posts"/i;
const LIKES_READ = /from "likes"/i;
const ALEX_SHA256 = '6db61e6dcbcf2390e4a46af426f26a133a3bee45021422fc7ae86e9136f14110';

beforeAll(async () => {
  pair = await startPrimaryAndReplica();
  server = await startServer({
    DATABASE_URL: pair.primaryUrl,
    DATABASE_READ_URL: pair.replicaUrl,
    PROFILE_LOOKUP_CACHE_MS: '0',
    REPLICA_CHECK_MS: '50',
    REPLICA_MAX_LAG_MS: '300',
    RATE_LIMIT_ANONYMOUS: '1000000',
    RATE_LIMIT_KEYED: '1000000',
    RATE_LIMIT_ACCOUNT: '1000000',
    RATE_LIMIT_AVATARS: '1000000',
  });
  call = contractFetch(await contractChecker());
  // Every row the tests read (the schema and all the demo data the server wrote on the primary) is on the
  // replica, and the server reads from it: a replica in use may be up to REPLICA_MAX_LAG_MS behind.
  await replicaHasReplayedAll();
  await replicaInUse(server);
}, 120_000);

/**
 * Waits until the replica has replayed everything the primary had committed when this was called: its WAL
 * insert position, not its write position, which trails the last commits by up to the WAL writer's delay
 * here (the test primary runs with `synchronous_commit = off`).
 */
async function replicaHasReplayedAll() {
  const [{ lsn }] = (await pair.query('primary', 'select pg_current_wal_insert_lsn()::text as lsn')) as [
    { lsn: string },
  ];
  await waitFor(async () => {
    const [row] = await pair.query('replica', `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`);
    return row?.done === true;
  });
}

/** Waits until `instance` answers a profile lookup from the replica. */
async function replicaInUse(instance: TestServer) {
  await waitFor(async () => {
    const before = pair.logged('replica', PROFILE_READ);
    const res = await call(`${instance.url}/v3/profiles/alex`);
    await res.arrayBuffer();
    return res.status === 200 && pair.logged('replica', PROFILE_READ) > before;
  });
}

afterAll(async () => {
  await server?.close();
  await pair?.close();
});

const lookup = async (headers: Record<string, string> = {}) => {
  const res = await call(`${server.url}/v3/profiles/alex`, { headers });
  expect(res.status).toBe(200);
  return res;
};

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Counts of `pattern` in each server's log while `work` runs. */
async function whoRuns(pattern: RegExp, work: () => Promise<unknown>) {
  const before = { primary: pair.logged('primary', pattern), replica: pair.logged('replica', pattern) };
  await work();
  return {
    primary: pair.logged('primary', pattern) - before.primary,
    replica: pair.logged('replica', pattern) - before.replica,
  };
}

describe('who answers which read', () => {
  it('profile lookups read from the replica', async () => {
    expect(await whoRuns(PROFILE_READ, () => lookup())).toEqual({ primary: 0, replica: 1 });
  });

  it('avatar images read from the replica', async () => {
    const counts = await whoRuns(AVATAR_READ, async () => {
      const res = await call(`${server.url}/avatar/${ALEX_SHA256}?s=80`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
    expect(counts).toEqual({ primary: 0, replica: 1 });
  });

  it('a keyed lookup checks its key on the primary (a revoked key is never read stale) and reads the profile from the replica', async () => {
    const keyed = await issueCredential.profiles!(server);
    const keyReads = await whoRuns(KEY_READ, () => lookup(keyed));
    expect(keyReads.replica).toBe(0);
    expect(keyReads.primary).toBeGreaterThanOrEqual(1);
    expect(await whoRuns(PROFILE_READ, () => lookup(keyed))).toEqual({ primary: 0, replica: 1 });
  });
});

describe('who answers which publishing request', () => {
  it('a post read (and its meta links) reads from the replica', async () => {
    const counts = await whoRuns(POST_READ, async () => {
      const res = await call(`${server.url}/rest/v1.1/sites/1/posts/108?meta=likes`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
    expect(counts.primary).toBe(0);
    expect(counts.replica).toBeGreaterThanOrEqual(1);
    const likes = await whoRuns(LIKES_READ, async () => {
      const res = await call(`${server.url}/rest/v1.1/sites/1/posts/108/likes`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
    expect(likes).toMatchObject({ primary: 0 });
    expect(likes.replica).toBeGreaterThanOrEqual(1);
  });

  it('trash and restore read and write on the primary only', async () => {
    const token = await publishingToken(server, 'admin');
    const headers = { Authorization: `Bearer ${token}` };
    const counts = await whoRuns(POST_READ, async () => {
      for (const action of ['delete', 'restore']) {
        const res = await call(`${server.url}/rest/v1.1/sites/1/posts/108/${action}`, { method: 'POST', headers });
        expect(res.status, `${action}: ${await res.text()}`).toBe(200);
      }
    });
    expect(counts.replica).toBe(0);
    expect(counts.primary).toBeGreaterThanOrEqual(2);
  });
});

describe('a replica that lags or stops', () => {
  it('is left out while it lags past the bound, and used again once it has caught up', async () => {
    await pair.query('replica', 'select pg_wal_replay_pause()');
    try {
      await pair.query('primary', 'create table if not exists lag_probe (at timestamptz)');
      await waitFor(async () => {
        await pair.query('primary', 'insert into lag_probe values (now())');
        return (await whoRuns(PROFILE_READ, () => lookup())).primary === 1;
      });
      expect(await whoRuns(PROFILE_READ, () => lookup())).toEqual({ primary: 1, replica: 0 });
    } finally {
      await pair.query('replica', 'select pg_wal_replay_resume()');
    }
    await waitFor(async () => (await whoRuns(PROFILE_READ, () => lookup())).replica === 1);
  });

  it('stopped and started under load: no request fails, and reads come back to it', async () => {
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    const client = async () => {
      while (!stop) {
        const res = await fetch(`${server.url}/v3/profiles/alex`);
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else failures.push(String(res.status));
      }
    };
    const clients = [client(), client(), client(), client()];
    await waitFor(async () => answered > 20);
    await pair.stopReplica();
    const atStop = answered;
    await waitFor(async () => answered > atStop + 50);
    await pair.startReplica();
    // Reads come back to it while the load goes on (the other clients' reads count too).
    await waitFor(async () => (await whoRuns(PROFILE_READ, () => lookup())).replica >= 1);
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(atStop + 50);
  });
});

describe('read-your-writes: a caller reads its own write on another instance while the replica is held behind', () => {
  let redis: RedisServer;
  let one: TestServer;
  let other: TestServer;
  let token: string;

  beforeAll(async () => {
    redis = await startRedis();
    // Two instances of one deployment (one schema, one Redis); a lag bound far beyond the test keeps the held replica in use.
    const env = {
      DATABASE_URL: pair.primaryUrl,
      DATABASE_SCHEMA: 'read_your_writes',
      DATABASE_READ_URL: pair.replicaUrl,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'read-your-writes',
      PROFILE_LOOKUP_CACHE_MS: '0',
      SITE_CACHE_MS: '0',
      REPLICA_CHECK_MS: '50',
      REPLICA_MAX_LAG_MS: '600000',
      RATE_LIMIT_ANONYMOUS: '1000000',
      RATE_LIMIT_KEYED: '1000000',
    };
    one = await startServer(env);
    other = await startServer(env);
    token = await publishingToken(one, 'admin');
    await replicaHasReplayedAll();
    await replicaInUse(one);
    await replicaInUse(other);
  }, 120_000);

  afterAll(async () => {
    await one?.close();
    await other?.close();
    await redis?.stop();
  });

  const postOn = async (instance: TestServer, headers: Record<string, string> = {}) => {
    const res = await call(`${instance.url}/rest/v1.1/sites/1/posts/108`, { headers });
    expect(res.status).toBe(200);
    return ((await res.json()) as { status: string }).status;
  };
  const act = async (instance: TestServer, action: 'delete' | 'restore') => {
    const res = await call(`${instance.url}/rest/v1.1/sites/1/posts/108/${action}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it('a post trashed through one instance is trash to its caller at once through the other; others read the held replica', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    expect(await postOn(other, auth)).toBe('publish');
    await pair.query('replica', 'select pg_wal_replay_pause()');
    try {
      await act(one, 'delete');
      const mine = await whoRuns(POST_READ, async () => expect(await postOn(other, auth)).toBe('trash'));
      expect(mine).toMatchObject({ replica: 0 });
      expect(mine.primary).toBeGreaterThanOrEqual(1);
      // Anyone else reads the replica, still before the write: it is held, and in use.
      const theirs = await whoRuns(POST_READ, async () => expect(await postOn(other)).toBe('publish'));
      expect(theirs).toMatchObject({ primary: 0 });

      await act(other, 'restore');
      expect(await postOn(one, auth)).toBe('publish');
    } finally {
      await pair.query('replica', 'select pg_wal_replay_resume()');
    }
  });

  it('once the replica has replayed the write, the caller reads from it again', async () => {
    await act(one, 'delete');
    await act(one, 'restore');
    await replicaHasReplayedAll();
    const auth = { Authorization: `Bearer ${token}` };
    // The instance knows the replica's position at its next check.
    await waitFor(async () => (await whoRuns(POST_READ, () => postOn(other, auth))).replica >= 1);
    expect(await postOn(other, auth)).toBe('publish');
  });
});
