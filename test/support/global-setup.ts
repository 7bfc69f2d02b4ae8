import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CONTRACTS, projectRoot, run } from '../../scripts/tools.js';

/**
 * Builds the rendered docs once when they are missing, so the server can
 * serve them, builds the developer dashboard page when it is missing or
 * older than its sources, and fails loudly when the PostgreSQL the suite
 * needs is down.
 */
export default async function setup() {
  await requirePostgres();
  await buildDashboardPage();
  if (CONTRACTS.every((name) => existsSync(join(projectRoot, 'dist/docs', `${name}.html`)))) return;
  const code = await run('tsx', ['scripts/build-docs.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run docs failed');
}

/** `npm run build:ui` (esbuild, under a second) unless dist/developers/ is complete and newer than every source. */
async function buildDashboardPage() {
  const built = ['index.html', 'app.js', 'app.css', 'icon.svg'].map((file) => join(projectRoot, 'dist/developers', file));
  const sources = ['web/developers', 'generated/developer'].flatMap((dir) =>
    readdirSync(join(projectRoot, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(projectRoot, dir, file)),
  );
  const newestSource = Math.max(...sources.map((file) => statSync(file).mtimeMs));
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= newestSource)) return;
  const code = await run('tsx', ['scripts/build-ui.ts'], { stdio: 'ignore' });
  if (code !== 0) throw new Error('npm run build:ui failed');
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
