import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './tools.js';

/** One measured request shape. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Expected status of every answer (anything else is counted as an error). */
  status: number;
}

/** Where the benchmarked server runs and which store it uses (to create keys or tokens). */
export interface BenchTarget {
  base: string;
  databaseUrl: string;
}

/** Issues a profiles API key in the benchmarked store through the admin command line (the key is its last line). */
function profilesApiKey(databaseUrl: string): string {
  const output = execFileSync(
    join(projectRoot, 'node_modules/.bin/tsx'),
    ['src/admin/cli.ts', 'keys', 'create', '--email', 'bench@example.com', '--app', 'Bench'],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
  );
  return output.trim().split('\n').at(-1)!;
}

/** Issues a publishing bearer token for the demo `admin` through the admin command line (the token is its last line). */
function publishingToken(databaseUrl: string): string {
  const output = execFileSync(
    join(projectRoot, 'node_modules/.bin/tsx'),
    ['src/admin/cli.ts', 'tokens', 'create', '--user', 'admin'],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
  );
  return output.trim().split('\n').at(-1)!;
}

/** The benchmark's scenarios against a running server (see bench.ts). */
export async function scenarios(target: BenchTarget): Promise<Scenario[]> {
  const profilesKey = profilesApiKey(target.databaseUrl);
  const publishingBearer = publishingToken(target.databaseUrl);
  return [
    { name: 'openapi document (routing + handler)', method: 'GET', path: '/v3/openapi', status: 200 },
    { name: 'profile anonymous', method: 'GET', path: '/v3/profiles/alex', status: 200 },
    {
      name: 'profile keyed',
      method: 'GET',
      path: '/v3/profiles/alex',
      headers: { Authorization: `Bearer ${profilesKey}` },
      status: 200,
    },
    {
      // Post 108 is published, so every restore answers 200 with it unchanged and the run is repeatable.
      name: 'restore post (not in trash)',
      method: 'POST',
      path: '/rest/v1.1/sites/1/posts/108/restore',
      headers: { Authorization: `Bearer ${publishingBearer}` },
      status: 200,
    },
  ];
}
