import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { adminProcess, lastLine } from '../support/processes.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * `npm run admin` as its own process: it works on the store DATABASE_URL
 * names, prints results on stdout and a failure as one `error:` line on
 * stderr with exit status 1. What each command does is proved in this
 * process by the services' admin suites (admin.cli, admin.keys,
 * admin.profiles-import) on both stores; the process on PostgreSQL
 * (DATABASE_SCHEMA) by test/scale/many-instances.test.ts and
 * test/faults/instance-killed.test.ts.
 */
let dir: string;
let server: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'admin-process-'));
  // A store that another process can open: an SQLite file.
  server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'store.db')}` });
  call = contractFetch(await contractChecker());
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (...args: string[]) =>
  adminProcess(args, { DATABASE_URL: server.config.databaseUrl, LOG_LEVEL: 'silent' });

describe('npm run admin, as its own process, on the store DATABASE_URL names', () => {
  it('tokens create: the token on its last line works on the server', async () => {
    const { code, stdout, stderr } = await admin('tokens', 'create', '--user', 'admin');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const restored = await call(`${server.url}/rest/v1.1/sites/1/posts/108/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${lastLine(stdout)}` },
    });
    expect(restored.status).toBe(200);
    expect((await restored.json()).status).toBe('publish');
  });

  it('keys create: the key on its last line gets the full profile', async () => {
    const { code, stdout } = await admin('keys', 'create', '--email', 'process@example.com', '--app', 'Process');
    expect(code).toBe(0);
    const keyed = await call(`${server.url}/v3/profiles/alex`, {
      headers: { Authorization: `Bearer ${lastLine(stdout)}` },
    });
    expect(keyed.status).toBe(200);
    expect(await keyed.json()).toHaveProperty('registration_date');
  });

  it('profiles import: reads the file it is given', async () => {
    const file = join(dir, 'import.json');
    writeFileSync(
      file,
      JSON.stringify([{ email: 'process@example.com', slug: 'by-process', display_name: 'By Process' }]),
    );
    const { code, stdout } = await admin('profiles', 'import', file);
    expect(code).toBe(0);
    expect(stdout).toContain('imported 1 profiles (1 created, 0 updated)');
    const imported = await call(`${server.url}/v3/profiles/by-process`);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ display_name: 'By Process' });
  });
});

describe('a failure', () => {
  it('of a command: exit status 1, one error line on stderr, nothing on stdout', async () => {
    const { code, stdout, stderr } = await admin('tokens', 'create', '--user', 'nobody');
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual(['error: no user with login "nobody"']);
    expect(stdout).toBe('');
  });

  it('of the usage (a required option missing): exit status 1, the error and the command’s usage on stderr', async () => {
    const { code, stdout, stderr } = await admin('tokens', 'create');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: required option '--user <login>' not specified/);
    expect(stderr).toMatch(/Usage: admin tokens create/);
    expect(stdout).toBe('');
  });
});
