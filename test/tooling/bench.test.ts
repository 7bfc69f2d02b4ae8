import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYaml } from '../../scripts/contracts.js';
import { contractWithOperations, operationCount } from '../../scripts/bench/contract50.js';
import { fileOf, summarise, type CpuProfile } from '../../scripts/bench/cpuprofile.js';
import {
  bundledPeers,
  load,
  startScript,
  statFields,
  stop,
  waitFor,
  type Server,
} from '../../scripts/bench/harness.js';
import {
  ContractRouter,
  ENTRY,
  issueApiKey,
  issuePublishingToken,
  loadContract,
  makeBenchPosts,
  PROFILES_CONTRACT,
  restorePath,
  serverEnv,
  trashPath,
} from '../../scripts/bench/project.js';
import { markdownTable } from '../../scripts/bench/report.js';
import { freePort, projectRoot } from '../../scripts/tools.js';
import { contractChecker, contractFetch } from '../support/contract.js';

/**
 * The benchmark (`npm run bench`, scripts/bench/) measures what it says:
 * every peer answers the same bytes and validates the path parameter from
 * the contract where it routes from it, the project adapter still starts
 * the server and makes its credentials and posts, the 50-operation contract
 * really has 50 operations in front of the profile route, and the profile
 * summary and query log count what they claim.
 */
const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((child) => stop(child)));
  rmSync(dir, { recursive: true, force: true });
});

const PEERS = { raw: false, koa: false, fastify: true, 'openapi-backend': true, express: true } as const;
/** The peers that also run "with the project's headers": the two floors and Fastify. */
const WITH_HEADERS = ['raw', 'koa', 'fastify'] as const;
/** Headers the project sent with its answer, as the bench hands them to every peer (written only with BENCH_WITH_HEADERS=1). */
const PROJECT_HEADERS = {
  'x-request-id': 'fixed',
  'x-ratelimit-limit': '1000',
  etag: '"abc"',
  vary: 'Origin, Authorization',
};
const body = Buffer.from(JSON.stringify({ display_name: 'Alex', hash: 'h' }));

/** The peers as the bench runs them: bundled (`bundledPeers`). */
let bundles: Map<string, string>;
/**
 * The answer every peer reads at its start, written once before any starts (written per peer, one peer's write
 * truncated the file while another read it, and that one answered an empty body).
 */
const bodyFile = join(dir, 'answer.json');
const peerScript = (name: string) => `scripts/bench/peers/${name}.ts`;

/** Starts the peer `name` answering `body` as the bench starts it (the project's headers only `withHeaders`); resolves with its base URL once it answers. */
async function startPeer(name: string, { withHeaders = false } = {}): Promise<string> {
  const port = await freePort();
  const child = startScript(bundles.get(peerScript(name))!, {
    BENCH_PORT: String(port),
    BENCH_BODY_FILE: bodyFile,
    BENCH_BODY_TYPE: 'application/json',
    BENCH_CONTRACT: PROFILES_CONTRACT,
    BENCH_HEADERS: JSON.stringify(PROJECT_HEADERS),
    BENCH_WITH_HEADERS: withHeaders ? '1' : '0',
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/v3/profiles/alex`, { status: 200, timeoutMs: 90_000 });
  return base;
}

/** Every peer as the bench starts it, and the floors again with the project's headers, all at once. */
const bases = new Map<string, string>();
const withHeaders = new Map<string, string>();
beforeAll(async () => {
  writeFileSync(bodyFile, body);
  bundles = await bundledPeers(Object.keys(PEERS).map(peerScript));
  await Promise.all([
    ...Object.keys(PEERS).map(async (name) => bases.set(name, await startPeer(name))),
    ...WITH_HEADERS.map(async (name) => withHeaders.set(name, await startPeer(name, { withHeaders: true }))),
  ]);
}, 120_000);

describe('the peers', () => {
  it.each(Object.keys(PEERS))("%s answers the given bytes, without the project's headers", async (name) => {
    const answer = await fetch(`${bases.get(name)}/v3/profiles/alex`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true);
    for (const header of Object.keys(PROJECT_HEADERS)) expect(answer.headers.get(header)).toBeNull();
  });

  it.each(
    Object.entries(PEERS)
      .filter(([, contract]) => contract)
      .map(([name]) => name),
  )('%s validates the identifier against the contract (maxLength 128)', async (name) => {
    const longest = await fetch(`${bases.get(name)}/v3/profiles/${'a'.repeat(128)}`);
    expect(longest.status).toBe(200);
    await longest.arrayBuffer();
    const tooLong = await fetch(`${bases.get(name)}/v3/profiles/${'a'.repeat(129)}`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toMatch(/128/);
  });
});

describe("the peers with the project's headers", () => {
  it.each(WITH_HEADERS)('%s writes them beside the bytes (BENCH_WITH_HEADERS=1)', async (name) => {
    const answer = await fetch(`${withHeaders.get(name)}/v3/profiles/alex`);
    expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true);
    for (const [header, value] of Object.entries(PROJECT_HEADERS)) expect(answer.headers.get(header)).toBe(value);
  });
});

describe('the stack a user would pick (peers/fastifyStack.ts)', () => {
  const JSON_COLUMNS = [
    'languages',
    'interests',
    'links',
    'contact_info',
    'payment_links',
    'crypto_wallets',
    'gallery',
    'verified_accounts',
  ];
  let base: string;
  beforeAll(async () => {
    // A profiles table of the columns the peer parses, with one profile.
    const file = join(dir, 'stack.db');
    const db = new Database(file);
    db.exec(
      `create table profiles (slug text primary key, display_name text, ${JSON_COLUMNS.map((c) => `${c} text`).join(', ')})`,
    );
    db.prepare(`insert into profiles values (?, ?, ${JSON_COLUMNS.map(() => '?').join(', ')})`).run(
      'sam',
      'Sam',
      ...JSON_COLUMNS.map((column) => (column === 'contact_info' ? '{"email":"s@example.com"}' : '[]')),
    );
    db.close();
    const bundle = (await bundledPeers(['scripts/bench/peers/fastifyStack.ts'])).get(
      'scripts/bench/peers/fastifyStack.ts',
    )!;
    const port = await freePort();
    children.push(
      startScript(bundle, {
        BENCH_PORT: String(port),
        BENCH_CONTRACT: PROFILES_CONTRACT,
        BENCH_DATABASE: file,
        BENCH_BODY_FILE: bodyFile,
      }),
    );
    base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/v3/profiles/sam`, { status: 200, timeoutMs: 90_000 });
  }, 120_000);

  it('reads the profile from the store on each request, counts it against a rate limit, and validates from the contract', async () => {
    const answer = await fetch(`${base}/v3/profiles/sam`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('1000000000');
    expect(await answer.json()).toEqual(
      expect.objectContaining({
        slug: 'sam',
        display_name: 'Sam',
        contact_info: { email: 's@example.com' },
        links: [],
      }),
    );
    expect((await fetch(`${base}/v3/profiles/nobody`)).status).toBe(404);
    expect((await fetch(`${base}/v3/profiles/${'a'.repeat(129)}`)).status).toBe(400);
  });
});

describe('the project adapter', () => {
  const databaseUrl = `sqlite:${join(dir, 'project.db')}`;
  const call = async (...args: Parameters<typeof fetch>) => contractFetch(await contractChecker())(...args);
  let server: Server;
  let token: string;

  beforeAll(async () => {
    const port = await freePort();
    const child = startScript(ENTRY, serverEnv(port, databaseUrl));
    children.push(child);
    server = { name: 'project', child, base: `http://127.0.0.1:${port}` };
    await waitFor(`${server.base}/v3/profiles/alex`, { status: 200, timeoutMs: 90_000 });
    token = await issuePublishingToken(databaseUrl);
  }, 120_000);

  it('starts the server from its entry point, and a key it issues gets the authenticated profile', async () => {
    const anonymous = await call(`${server.base}/v3/profiles/alex`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).not.toHaveProperty('registration_date');
    const key = await issueApiKey(databaseUrl);
    const keyed = await call(`${server.base}/v3/profiles/alex`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
    expect(await keyed.json()).toHaveProperty('registration_date');
  }, 60_000);

  it('issues a publishing token that trashes, and makes posts that trash and restore; the load of each phase meets no error', async () => {
    const posts = makeBenchPosts(databaseUrl, 20, 200_000);
    expect(posts).toHaveLength(20);
    const headers = { Authorization: `Bearer ${token}` };
    const first = await call(`${server.base}${trashPath(posts[0]!)}`, { method: 'POST', headers });
    expect(first.status).toBe(200);
    expect((await first.json()).status).toBe('trash');
    const back = await call(`${server.base}${restorePath(posts[0]!)}`, { method: 'POST', headers });
    expect((await back.json()).status).toBe('publish');
    // The bench's phases: each post once, over several connections, every answer a 200.
    for (const path of [trashPath, restorePath]) {
      const measured = await load(server, {
        method: 'POST',
        path: path(posts[0]!),
        pathOf: (n) => path(posts[n]!),
        headers,
        connections: 4,
        amount: posts.length,
      });
      expect(measured).toMatchObject({ requests: posts.length, errors: 0 });
      expect(measured.cpuMicros).toBeGreaterThan(0);
    }
    const last = await call(`${server.base}/rest/v1.1/sites/1/posts/${posts.at(-1)}`, { headers });
    expect((await last.json()).status).toBe('publish');
  }, 60_000);

  it("makes copies in the demo post's categories and tags only when asked", async () => {
    const headers = { Authorization: `Bearer ${token}` };
    const termsOf = async (id: number) => {
      const post = await (await call(`${server.base}/rest/v1.1/sites/1/posts/${id}`, { headers })).json();
      return [Object.keys(post.categories), Object.keys(post.tags)];
    };
    const template = await termsOf(108);
    expect(template.flat().length).toBeGreaterThan(0);
    const [plain] = makeBenchPosts(databaseUrl, 1, 300_000);
    const [withTerms] = makeBenchPosts(databaseUrl, 1, 300_001, { withTerms: true });
    expect(await termsOf(plain!)).toEqual([[], []]);
    expect(await termsOf(withTerms!)).toEqual(template);
  }, 60_000);

  it('counts every answer of another status as an error', async () => {
    const measured = await load(server, { path: '/v3/profiles/nobody-has-this', connections: 2, amount: 10 });
    expect(measured).toMatchObject({ requests: 10, errors: 10 });
  });
});

describe('the routing rows', () => {
  const profiles = parseYaml(readFileSync(PROFILES_CONTRACT, 'utf8')) as Record<string, unknown>;

  it.each([2, 50])(
    'a %d-operation contract compiles with that many operations and routes the profile lookup',
    async (size) => {
      const document = contractWithOperations(profiles, size);
      expect(operationCount(document)).toBe(size);
      const file = join(dir, `contract-${size}.json`);
      writeFileSync(file, JSON.stringify(document));
      const contract = await loadContract(file);
      expect(contract.operations).toHaveLength(size);
      const router = new ContractRouter('/v3', contract.operations);
      const match = router.match('GET', '/v3/profiles/alex');
      expect(match).toMatchObject({ kind: 'operation', operation: { operationId: 'getProfileById' } });
      // The generated paths stand before the profile path, so an in-order router passes them all.
      expect(Object.keys(document.paths as object).at(-2)).toBe('/profiles/{profileIdentifier}');
    },
  );
});

describe('the measuring tools', () => {
  it('reads CPU times from /proc/<pid>/stat whatever the command name holds', () => {
    const fields = statFields('1234 (node (a) b) S 1 2 3 4 5 6 7 8 9 10 250 40 0 0');
    expect([fields[11], fields[12]]).toEqual(['250', '40']);
  });

  it('ranks self time by function and by file, without the idle time', () => {
    const root = '/project/';
    const node = (id: number, functionName: string, url: string) => ({
      id,
      callFrame: { functionName, url, lineNumber: 0 },
    });
    const profile: CpuProfile = {
      nodes: [
        node(1, '(root)', ''),
        node(2, '(idle)', ''),
        node(3, 'validate', 'file:///project/node_modules/ajv/dist/x.js'),
        node(4, 'pipeline', 'file:///project/src/http/pipeline.ts'),
        node(5, 'compile', 'file:///project/node_modules/@scope/pkg/y.js'),
        node(6, '(garbage collector)', ''),
      ],
      samples: [2, 3, 3, 4, 5, 6, 2],
      timeDeltas: [500, 100, 100, 100, 50, 150, 500],
      startTime: 0,
      endTime: 1500,
    };
    const summary = summarise(profile, root);
    expect(summary.idleMs).toBe(1);
    expect(summary.busyMs).toBe(0.5);
    expect(summary.byFile.map((share) => [share.name, share.percent])).toEqual([
      ['ajv', 40],
      ['(garbage collector)', 30],
      ['src/http/pipeline.ts', 20],
      ['@scope/pkg', 10],
    ]);
    expect(summary.byFunction[0]).toMatchObject({ name: 'validate ajv/dist/x.js:1', percent: 40 });
    expect(fileOf('node:internal/http/server', root)).toBe('node:internal/http');
  });

  it('the query log records every SQL statement a process runs, with the microseconds SQLite took for it', () => {
    const log = join(dir, 'statements.log');
    const script = join(dir, 'queries.mjs');
    writeFileSync(
      script,
      [
        `import { createRequire } from 'node:module';`,
        `const Database = createRequire(${JSON.stringify(join(projectRoot, 'package.json'))})('better-sqlite3');`,
        `const db = new Database(':memory:');`,
        `db.prepare('create table t (x)').run();`,
        `const insert = db.prepare('insert into t values (?)');`,
        `insert.run(1); insert.run(2);`,
        `db.prepare('select x from t').all();`,
      ].join('\n'),
    );
    const trace = pathToFileURL(join(projectRoot, 'scripts/bench/sql-trace.ts')).href;
    execFileSync(process.execPath, ['--import', 'tsx', '--import', trace, script], {
      cwd: projectRoot,
      env: { ...process.env, BENCH_SQL_LOG: log },
    });
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(lines.map(([, text]) => text)).toEqual([
      'create table t (x)',
      'insert into t values (?)',
      'insert into t values (?)',
      'select x from t',
    ]);
    for (const [micros] of lines) {
      expect(micros).toMatch(/^\d+\.\d$/);
      expect(Number(micros)).toBeLessThan(1_000_000);
    }
  });

  it('writes a Markdown table with one cell a column, escaping pipes', () => {
    const table = markdownTable([
      { row: 'a | b', cpuMicros: 12.4, ratio: 1.5, rps: 5600, p99: 9, rssMB: 80, errors: 0, note: 'n' },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('| a \\| b | 12 µs | 1.50× | 5.6k | 9.0 ms | 80 MB | 0 | n |');
  });
});
