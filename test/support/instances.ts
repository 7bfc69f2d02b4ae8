import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './server.js';

export interface InstancePair {
  one: TestServer;
  other: TestServer;
  close(): Promise<void>;
}

/**
 * Two instances of the app on one store, as two machines behind a load
 * balancer would be: an SQLite file in a folder of their own (dropped on
 * close) and one Redis key prefix of their own, with `env` on top (the Redis
 * to share, the services, the cache bounds under test), and `each(index)` on
 * top of that for one instance (its port).
 */
export async function startInstancePair(
  env: Record<string, string>,
  each: (index: number) => Record<string, string> = () => ({}),
): Promise<InstancePair> {
  const dir = mkdtempSync(join(tmpdir(), 'instance-pair-'));
  const shared = { DATABASE_URL: `sqlite:${join(dir, 'store.db')}`, REDIS_KEY_PREFIX: `test-${randomUUID()}`, ...env };
  const started: TestServer[] = [];
  const close = async () => {
    for (const server of started.reverse()) await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // One after the other: the first migrates and seeds the store, the second finds it ready.
    started.push(await startServer({ ...shared, ...each(0) }));
    started.push(await startServer({ ...shared, ...each(1) }));
  } catch (error) {
    await close();
    throw error;
  }
  return { one: started[0]!, other: started[1]!, close };
}
