import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../tools.js';

/**
 * A PostgreSQL primary and one streaming replica of the test's own, in a
 * temporary folder on free ports, from the machine's own binaries
 * (`initdb`, `pg_basebackup -R`, `pg_ctl`; the folder `pg_config --bindir`
 * prints, or `PG_BIN_DIR`). PostgreSQL refuses to run as root: as root they
 * run as the `postgres` user.
 */
export interface PrimaryAndReplica {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica at once (`pg_ctl stop -m immediate`, as a crash). */
  stopReplica(): Promise<void>;
  /** Starts it again; resolves once it answers and streams. */
  startReplica(): Promise<void>;
  /** Runs SQL on the primary or the replica. */
  query(on: 'primary' | 'replica', sql: string): Promise<Record<string, unknown>[]>;
  /** How many statements matching `pattern` each server has logged so far (every statement is logged unless `logStatements` is false). */
  logged(on: 'primary' | 'replica', pattern: RegExp): number;
  close(): Promise<void>;
}

const binDir = process.env.PG_BIN_DIR ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as `postgres` when this process is root (without blocking: a server under test shares this process). */
async function pgRun(binary: string, args: string[]): Promise<void> {
  const command = asRoot ? 'runuser' : join(binDir, binary);
  const fullArgs = asRoot ? ['-u', 'postgres', '--', join(binDir, binary), ...args] : args;
  try {
    await promisify(execFile)(command, fullArgs, { encoding: 'utf8', timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${binary} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`);
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`PostgreSQL: ${what} did not happen within ${timeoutMs} ms`);
}

async function run(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startPrimaryAndReplica(options: { logStatements?: boolean } = {}): Promise<PrimaryAndReplica> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-replica-'));
  chmodSync(dir, 0o755);
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  await pgRun('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(
    join(primaryDir, 'postgresql.conf'),
    `\nport = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nwal_level = replica\nmax_wal_senders = 4\nlog_statement = '${options.logStatements === false ? 'none' : 'all'}'\nlogging_collector = off\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n`,
  );
  writeFileSync(
    join(primaryDir, 'pg_hba.conf'),
    'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\nlocal replication all trust\n',
  );
  await pgRun('pg_ctl', ['-D', primaryDir, '-l', join(dir, 'primary.log'), '-w', 'start']);
  await pgRun('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  appendFileSync(
    join(replicaDir, 'postgresql.conf'),
    `\nport = ${replicaPort}\nhot_standby = on\nhot_standby_feedback = on\n`,
  );
  chmodSync(replicaDir, 0o700);

  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const startReplica = async () => {
    await pgRun('pg_ctl', ['-D', replicaDir, '-l', join(dir, 'replica.log'), '-w', 'start']);
    await until('the replica streaming', async () => {
      const rows = await run(
        replicaUrl,
        "select exists (select 1 from pg_stat_wal_receiver where status = 'streaming') as streaming",
      );
      return rows[0]?.streaming === true;
    });
  };
  await startReplica();
  return {
    primaryUrl,
    replicaUrl,
    stopReplica: () => pgRun('pg_ctl', ['-D', replicaDir, '-m', 'immediate', '-w', 'stop']),
    startReplica,
    query: (on, sql) => run(on === 'primary' ? primaryUrl : replicaUrl, sql),
    logged(on, pattern) {
      const log = readFileSync(join(dir, `${on}.log`), 'utf8');
      return log.split('\n').filter((line) => /statement: |execute /.test(line) && pattern.test(line)).length;
    },
    async close() {
      for (const data of [replicaDir, primaryDir]) {
        await pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {}); // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `postgres` user's uid and gid. */
function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
