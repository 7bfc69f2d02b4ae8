import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CONTRACTS, projectRoot, run } from '../../scripts/tools.js';

/**
 * Builds the rendered docs once when they are missing, so the server can
 * serve them, and fails loudly when the PostgreSQL the suite needs is down.
 */
export default async function setup() {
  await requirePostgres();
  if (CONTRACTS.every((name) => existsSync(join(projectRoot, 'dist/docs', `${name}.html`)))) return;
  const code = await run('tsx', ['scripts/build-docs.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run docs failed');
}

async function requirePostgres() {
  const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at TEST_POSTGRES_URL (${url.replace(/\/\/[^@]*@/, '//')}): ${String(error)}. ` +
        'Start it (see the README) or point TEST_POSTGRES_URL at one.',
    );
  } finally {
    await client.end().catch(() => {});
  }
}
