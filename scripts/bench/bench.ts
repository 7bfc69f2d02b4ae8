/**
 * `npm run bench`: the project side by side with the stack a user would
 * pick instead, in one run on this machine, then the project's own hot paths.
 *
 * 1. Builds the server as production runs it (`npm run build:server`),
 *    migrates and seeds a store with it (SQLite in a temporary file, demo
 *    data: a first start, stopped once it answers), then starts it on that
 *    existing store, as production starts (`node dist/server/src/main.js`),
 *    and fetches alex's anonymous profile answer once.
 * 2. Starts the peers as child processes, each from openapi/profiles.yaml and
 *    serving those same bytes: raw node:http, bare Koa, Fastify +
 *    fastify-openapi-glue, Koa + openapi-backend `handleRequest`, Express +
 *    express-openapi-validator (peers/); and raw node:http and bare Koa once
 *    more writing the headers of the project's answer too, as constants (the
 *    floor under an answer with the contract's headers).
 * 3. Loads each with autocannon (`GET /v3/profiles/alex`, anonymous, and the
 *    project also with an API key, and a second project server with every
 *    answer validated against the contract, as tests run it) in alternating rounds, and reads each
 *    server's CPU time (/proc/<pid>/stat) over the load: CPU per request,
 *    requests/s, p99 latency, and RSS (VmRSS) read at the end of each of
 *    its rounds, the largest reported: every server read at the same moment
 *    of its load, while its young generation is in use (an idle process's
 *    RSS depends on whether V8's memory reducer has run yet). The peers run
 *    bundled by esbuild, as the project's server does (not through tsx,
 *    whose loader thread would count in their memory).
 * 4. Trash and restore of posts (each post trashed, then restored, once a
 *    round), the SQL statements of one request of each kind (from a query
 *    log on a server that is not timed) and the time SQLite itself takes
 *    for a trash's and a restore's statements on that server under the same
 *    load, routing with a 50-operation contract
 *    against a 2-operation one (routing.ts), a page of the posts list (20
 *    posts) beside a single post read, and start-up to the first 200 of the
 *    compiled server.
 *
 * 5. The three workloads of `npm run bench:workloads` (workloads.ts): one
 *    profile, a Zipf and a uniform mix over 10,000, beside Fastify +
 *    fastify-openapi-glue + @fastify/rate-limit + a SQLite read.
 *
 * Prints one table (each CPU figure also as a multiple of the best peer's),
 * the same as Markdown for docs/performance.md, and writes .tmp/bench-latest.json.
 *
 * BENCH_DURATION seconds per round (default 4), BENCH_ROUNDS (5),
 * BENCH_CONNECTIONS (50), BENCH_WARMUP seconds (1), BENCH_RESTORE_POSTS (500;
 * the site's post count grows by as many), BENCH_RESTORE_WARMUP posts (1000,
 * trashed and restored once before the measured rounds), BENCH_RESTORE_TERMS=1
 * (the copies share the demo post's terms), BENCH_STARTUPS (3),
 * BENCH_POSTGRES_URL (the PostgreSQL server of the trash and restore rows on
 * PostgreSQL; default the local `test` database).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dropSchema, freePort, projectRoot } from '../tools.js';
import {
  bundledPeers,
  combine,
  cpuSecondsOfProcesses,
  cpuSecondsSince,
  load,
  rssBytes,
  startScript,
  stop,
  waitFor,
  type Combined,
  type Measurement,
  type Server,
} from './harness.js';
import {
  buildServer,
  COMPILED_ENTRY,
  ENTRY,
  issueApiKey,
  issuePublishingToken,
  makeBenchPosts,
  listPath,
  makePostgresBenchPosts,
  PROFILES_CONTRACT,
  readPath,
  restorePath,
  serverEnv,
  trashPath,
} from './project.js';
import { markdownTable, consoleRows, type Row } from './report.js';

const duration = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const restorePosts = Number(process.env.BENCH_RESTORE_POSTS ?? 500);
const restoreWarmupPosts = Number(process.env.BENCH_RESTORE_WARMUP ?? 1000);
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const restoreWithTerms = process.env.BENCH_RESTORE_TERMS === '1';
const startups = Number(process.env.BENCH_STARTUPS ?? 3);

const LOOKUP = '/v3/profiles/alex';

/**
 * The peers. Those with `contract` route and validate from the contract, as
 * the project does: the best of them (least CPU per request) is the "best
 * peer" every ratio is taken to. The others are floors: no routing, no validation.
 */
const PEERS = [
  { name: 'raw `node:http` writing the bytes', script: 'scripts/bench/peers/raw.ts', contract: false },
  { name: 'bare Koa route', script: 'scripts/bench/peers/koa.ts', contract: false },
  {
    name: "raw `node:http` writing the bytes and the project's headers",
    script: 'scripts/bench/peers/raw.ts',
    contract: false,
    withHeaders: true,
  },
  {
    name: "bare Koa route writing the project's headers",
    script: 'scripts/bench/peers/koa.ts',
    contract: false,
    withHeaders: true,
  },
  { name: 'Fastify + fastify-openapi-glue', script: 'scripts/bench/peers/fastify.ts', contract: true },
  {
    name: "Fastify + fastify-openapi-glue writing the project's headers",
    script: 'scripts/bench/peers/fastify.ts',
    contract: true,
    withHeaders: true,
  },
  { name: 'Koa + openapi-backend `handleRequest`', script: 'scripts/bench/peers/openapi-backend.ts', contract: true },
  { name: 'Express + express-openapi-validator', script: 'scripts/bench/peers/express.ts', contract: true },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'bench-'));
const children: ChildProcess[] = [];

/**
 * Starts the project's server: compiled, as production runs it (what is
 * timed); with preload `nodeFlags` (TypeScript) from its TypeScript entry.
 */
async function startProject(databaseUrl: string, extraEnv: Record<string, string> = {}, nodeFlags: string[] = []) {
  const port = await freePort();
  const child = startScript(
    nodeFlags.length ? ENTRY : COMPILED_ENTRY,
    // V8's young generation and glibc's allocator as `npm run start:prod` set them (docs/operations.md).
    {
      ...serverEnv(port, databaseUrl),
      NODE_OPTIONS: '--max-semi-space-size=4',
      MALLOC_ARENA_MAX: '1',
      MALLOC_MMAP_THRESHOLD_: '4194304',
      ...extraEnv,
    },
    { nodeFlags },
  );
  children.push(child);
  const server: Server = { name: 'this project', child, base: `http://127.0.0.1:${port}` };
  await waitFor(`${server.base}${LOOKUP}`, { status: 200, timeoutMs: 60_000 });
  return server;
}

/**
 * Migrates and seeds the store at `databaseUrl` with the compiled server (a
 * start, stopped once it answers), so the servers whose memory the bench
 * reads start on an existing store, as production does: a new store's
 * seeding checks the demo avatars with sharp, which then stays loaded
 * (libvips and the seeding's garbage, which a production instance does
 * not have: docs/performance.md).
 */
async function seedStore(databaseUrl: string): Promise<void> {
  const port = await freePort();
  const child = startScript(COMPILED_ENTRY, serverEnv(port, databaseUrl));
  children.push(child);
  try {
    await waitFor(`http://127.0.0.1:${port}${LOOKUP}`, { status: 200, timeoutMs: 60_000 });
  } finally {
    await stop(child);
  }
}

/** Milliseconds from spawning the compiled server (`node dist/server/src/main.js`) to its first 200 on the profile lookup (all contracts compiled by then). */
async function startUpMs(databaseUrl: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = startScript(COMPILED_ENTRY, serverEnv(port, databaseUrl));
  children.push(child);
  try {
    await waitFor(`http://127.0.0.1:${port}${LOOKUP}`, { status: 200, timeoutMs: 60_000, intervalMs: 5 });
    return performance.now() - started;
  } finally {
    await stop(child);
  }
}

/** Statements the server's query log gained while `request` ran (and 100 ms after, for work done after the answer). */
async function statementsOf(
  log: string,
  request: () => Promise<Response>,
): Promise<{ count: number; status: number; body: string; statements: string[] }> {
  const before = logLinesSince(log, 0).length;
  const answer = await request();
  const body = await answer.text();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const statements = logLinesSince(log, before).map(([, text]) => text ?? '');
  return { count: statements.length, status: answer.status, body: body.slice(0, 200), statements };
}

/** The statement lines (SQLite's microseconds, a tab, the SQL) a query log has gained since it had `from` lines. */
function logLinesSince(log: string, from: number): string[][] {
  try {
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(from)
      .map((line) => line.split('\t'));
  } catch {
    return [];
  }
}

/**
 * SQLite's own microseconds per trash and per restore on the traced server
 * (sql-trace.ts) under the load of the timed rows: `warmup` posts trashed
 * and restored once, then `posts` trashed and restored, each phase's
 * statement times summed and divided by its requests.
 */
async function sqliteMicrosUnderLoad(
  server: Server,
  token: string,
  log: string,
  warmup: readonly number[],
  posts: readonly number[],
) {
  const headers = { Authorization: `Bearer ${token}` };
  const phase = async (ids: readonly number[], path: (id: number) => string) => {
    const from = logLinesSince(log, 0).length;
    const measured = await load(server, {
      method: 'POST',
      path: path(ids[0]!),
      pathOf: (n) => path(ids[n] ?? 1),
      headers,
      connections,
      amount: ids.length,
    });
    if (measured.errors) throw new Error(`SQLite time under load: ${measured.errors} errors`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return logLinesSince(log, from).reduce((sum, [micros]) => sum + (Number(micros) || 0), 0) / measured.requests;
  };
  if (warmup.length) {
    await phase(warmup, trashPath);
    await phase(warmup, restorePath);
  }
  return { trash: await phase(posts, trashPath), restore: await phase(posts, restorePath) };
}

/** One server's trash and restore rounds: the CPU of each request, and of the database's own processes when `databaseCpu` reads them. */
interface TrashAndRestoreRuns {
  trash: Measurement[];
  restore: Measurement[];
  /** Microseconds of the database processes' CPU per request, each round. */
  trashDatabase: number[];
  restoreDatabase: number[];
}

/**
 * Trashes, then restores, each of `warmup` once (not measured: the JIT's
 * warm-up), then each of `posts` once a round for `rounds` rounds
 * (concurrently, over the bench's connections), as the user of `token`.
 */
async function trashAndRestoreRounds(
  server: Server,
  token: string,
  warmup: readonly number[],
  posts: readonly number[],
  databaseCpu?: () => Map<number, number>,
): Promise<TrashAndRestoreRuns> {
  const headers = { Authorization: `Bearer ${token}` };
  const runs: TrashAndRestoreRuns = { trash: [], restore: [], trashDatabase: [], restoreDatabase: [] };
  const phase = async (ids: readonly number[], path: (id: number) => string, database: number[]) => {
    // Past the last post (should autocannon ask for more paths than it sends) a post that does not exist: a 404, counted as an error if sent.
    const pathOf = (n: number) => path(n < ids.length ? ids[n]! : 1);
    const before = databaseCpu?.();
    const measured = await load(server, {
      method: 'POST',
      path: path(ids[0]!),
      pathOf,
      headers,
      connections,
      amount: ids.length,
    });
    const after = databaseCpu?.();
    database.push(before && after ? (cpuSecondsSince(before, after) * 1e6) / measured.requests : Number.NaN);
    return measured;
  };
  if (warmup.length) {
    console.error(`trash and restore warm-up: ${warmup.length} other posts`);
    await phase(warmup, trashPath, []);
    await phase(warmup, restorePath, []);
  }
  for (let round = 0; round < rounds; round++) {
    console.error(`trash and restore ${posts.length} posts, round ${round + 1}/${rounds}`);
    runs.trash.push(await phase(posts, trashPath, runs.trashDatabase));
    runs.restore.push(await phase(posts, restorePath, runs.restoreDatabase));
  }
  return runs;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The note on SQLite's own share of a request. */
const sqliteShare = (micros: number) =>
  `SQLite itself ${micros.toFixed(0)} µs of a request (its statements timed on a server of its own under the same load)`;

try {
  console.error('compiling the server (npm run build:server)');
  buildServer();
  const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
  await seedStore(databaseUrl);
  const project = await startProject(databaseUrl);
  const sample = await fetch(`${project.base}${LOOKUP}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const bodyFile = join(dir, 'answer.json');
  writeFileSync(bodyFile, body);
  const contentType = sample.headers.get('content-type') ?? 'application/json';
  // The headers of the project's answer, for the floors that write them too (Node adds the ones it writes itself).
  const projectHeaders = Object.fromEntries(
    [...sample.headers].filter(
      ([name]) =>
        !['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding'].includes(name),
    ),
  );
  const apiKey = await issueApiKey(databaseUrl);
  const token = await issuePublishingToken(databaseUrl);

  const peers: Server[] = [];
  const peerBundles = await bundledPeers(PEERS.map((peer) => peer.script));
  for (const peer of PEERS) {
    const port = await freePort();
    const child = startScript(peerBundles.get(peer.script)!, {
      BENCH_PORT: String(port),
      BENCH_BODY_FILE: bodyFile,
      BENCH_BODY_TYPE: contentType,
      BENCH_CONTRACT: PROFILES_CONTRACT,
      BENCH_HEADERS: JSON.stringify(projectHeaders),
      BENCH_WITH_HEADERS: 'withHeaders' in peer && peer.withHeaders ? '1' : '0',
    });
    children.push(child);
    const server = { name: peer.name, child, base: `http://127.0.0.1:${port}` };
    await waitFor(`${server.base}${LOOKUP}`, { status: 200 });
    const answer = Buffer.from(await (await fetch(`${server.base}${LOOKUP}`)).arrayBuffer());
    if (!answer.equals(body)) throw new Error(`${peer.name} does not answer the project's bytes`);
    peers.push(server);
  }

  // What answer validation costs when production turns it on: a second project server with it on.
  const validatingUrl = `sqlite:${join(dir, 'validating.db')}`;
  await seedStore(validatingUrl);
  const validating = await startProject(validatingUrl, { RESPONSE_VALIDATION: 'strict' });

  // The side-by-side rows: every peer, the project anonymous and the project with a key.
  const keyed = { Authorization: `Bearer ${apiKey}` };
  const ANONYMOUS = '**this project**, anonymous';
  const KEYED = 'this project, with an API key';
  const VALIDATING = 'this project, anonymous, every answer validated (`RESPONSE_VALIDATION=strict`)';
  const targets = [
    ...peers.map((server) => ({ server, name: server.name, headers: undefined as Record<string, string> | undefined })),
    { server: project, name: ANONYMOUS, headers: undefined },
    { server: project, name: KEYED, headers: keyed },
    { server: validating, name: VALIDATING, headers: undefined },
  ];
  console.error(`warming up ${targets.length} servers for ${warmup}s each`);
  for (const target of targets) {
    await load(target.server, { path: LOOKUP, headers: target.headers, connections, duration: warmup });
  }
  const runs = new Map<string, Measurement[]>(targets.map((target) => [target.name, []]));
  // RSS at the end of each round of each server, before it idles (the same moment of every server's load).
  const roundRss = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Each round starts one server later, so no server always follows the same one.
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const target of order) {
      console.error(`round ${round + 1}/${rounds}: ${target.name}`);
      runs
        .get(target.name)!
        .push(await load(target.server, { path: LOOKUP, headers: target.headers, connections, duration }));
      roundRss.get(target.name)!.push(rssBytes(target.server.child.pid));
    }
  }
  const rss = new Map(targets.map((target) => [target.name, Math.max(...roundRss.get(target.name)!)]));
  for (const peer of peers) await stop(peer.child);

  // Trash and restore: each bench post trashed once, then restored once, per round.
  const posts = makeBenchPosts(databaseUrl, restorePosts, 100_000, { withTerms: restoreWithTerms });
  // Warm-up on posts of its own, as many as the JIT needs: the lookups' rounds are seconds of
  // load each, so a few hundred restores alone would time a server still compiling these paths.
  const warmupPosts =
    restoreWarmupPosts > 0
      ? makeBenchPosts(databaseUrl, restoreWarmupPosts, 200_000, { withTerms: restoreWithTerms })
      : [];
  const sqliteRuns = await trashAndRestoreRounds(project, token, warmupPosts, posts);
  // A page of the list (20 full post objects, newest first, on a site of as many posts as the bench made) beside a single post read.
  const postReads: Measurement[] = [];
  const listReads: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    console.error(`read a post and list a page of 20, round ${round + 1}/${rounds}`);
    postReads.push(await load(project, { path: readPath(posts[0]!), connections, duration }));
    listReads.push(await load(project, { path: listPath, connections, duration }));
  }
  await stop(validating.child);
  const publishingRss = rssBytes(project.child.pid);
  await stop(project.child);

  // The same on PostgreSQL: a server of its own, on a schema of its own (dropped at the end).
  const postgresRuns = await (async () => {
    const schema = `bench_${process.pid}`;
    try {
      const server = await startProject(postgresUrl, { DATABASE_SCHEMA: schema });
      try {
        const pgToken = await issuePublishingToken(postgresUrl, schema);
        const pgWarmup =
          restoreWarmupPosts > 0
            ? await makePostgresBenchPosts(postgresUrl, schema, restoreWarmupPosts, 200_000, {
                withTerms: restoreWithTerms,
              })
            : [];
        const pgPosts = await makePostgresBenchPosts(postgresUrl, schema, restorePosts, 100_000, {
          withTerms: restoreWithTerms,
        });
        return await trashAndRestoreRounds(server, pgToken, pgWarmup, pgPosts, () => cpuSecondsOfProcesses('postgres'));
      } finally {
        await stop(server.child);
      }
    } catch (error) {
      console.error(`trash and restore on PostgreSQL not measured: ${(error as Error).message}`);
      return { skipped: (error as Error).message.split('\n')[0]! };
    } finally {
      await dropSchema(postgresUrl, schema).catch(() => {});
    }
  })();

  // Statements per request, from the query log of a server that is not timed.
  const sqlLog = join(dir, 'statements.log');
  const tracedUrl = `sqlite:${join(dir, 'traced.db')}`;
  const traced = await startProject(tracedUrl, { BENCH_SQL_LOG: sqlLog }, [
    '--import',
    pathToFileURL(join(projectRoot, 'scripts/bench/sql-trace.ts')).href,
  ]);
  const tracedKey = await issueApiKey(tracedUrl);
  const tracedToken = await issuePublishingToken(tracedUrl);
  const [tracedPost] = makeBenchPosts(tracedUrl, 1);
  const get = (headers?: Record<string, string>) => () => fetch(`${traced.base}${LOOKUP}`, { headers });
  const post = (path: string) => () =>
    fetch(`${traced.base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${tracedToken}` } });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const statements = {
    anonymousFirst: await statementsOf(sqlLog, get()),
    anonymousRepeated: await statementsOf(sqlLog, get()),
    keyedFirst: await statementsOf(sqlLog, get({ Authorization: `Bearer ${tracedKey}` })),
    keyedRepeated: await statementsOf(sqlLog, get({ Authorization: `Bearer ${tracedKey}` })),
    // The caller's token is read on its first use only (then known for ACCESS_TOKEN_CACHE_MS): that use is not counted.
    tokenFirst: await statementsOf(sqlLog, post(restorePath(tracedPost!))),
    trash: await statementsOf(sqlLog, post(trashPath(tracedPost!))),
    restore: await statementsOf(sqlLog, post(restorePath(tracedPost!))),
  };
  // SQLite's own time in a trash and a restore under the timed rows' load (a server of its own, warmed up the same way).
  const sqliteTime = await sqliteMicrosUnderLoad(
    traced,
    tracedToken,
    sqlLog,
    makeBenchPosts(tracedUrl, restoreWarmupPosts, 200_000),
    makeBenchPosts(tracedUrl, restorePosts, 300_000),
  );
  await stop(traced.child);
  for (const [name, counted] of Object.entries(statements)) {
    if (counted.status !== 200) throw new Error(`statement count of ${name}: status ${counted.status} ${counted.body}`);
  }

  // Routing with 2 and 50 operations, in a process of its own.
  console.error('routing: 2 and 50 operations');
  const routing = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/bench/routing.ts')], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, BENCH_ROUNDS: String(rounds) },
    }),
  ) as {
    iterations: number;
    small: { operations: number; lookup: number; miss: number };
    large: { operations: number; lookup: number; miss: number };
  };

  // Start-up to the first 200: a new store (migrations and demo data), then the same store again.
  console.error(`start-up, ${startups} times each`);
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < startups; i++) {
    const url = `sqlite:${join(dir, `startup-${i}.db`)}`;
    fresh.push(await startUpMs(url));
    existing.push(await startUpMs(url));
  }

  // The table.
  const combined = new Map<string, Combined>([...runs].map(([name, list]) => [name, combine(list)]));
  const peerCpu = PEERS.filter((peer) => peer.contract).map((peer) => ({
    name: peer.name,
    cpu: combined.get(peer.name)!.cpuMicros,
  }));
  const best = peerCpu.reduce((a, b) => (b.cpu < a.cpu ? b : a));
  const anonymous = combined.get(ANONYMOUS)!;
  const keyedRun = combined.get(KEYED)!;
  const validatingRun = combined.get(VALIDATING)!;
  const named = (name: (typeof PEERS)[number]['name']) => combined.get(name)!;
  const koa = named('bare Koa route');
  const koaWithHeaders = named("bare Koa route writing the project's headers");
  const fastifyWithHeaders = named("Fastify + fastify-openapi-glue writing the project's headers");
  const trash = combine(sqliteRuns.trash);
  const restore = combine(sqliteRuns.restore);
  const mb = (bytes: number | undefined) => (bytes === undefined || Number.isNaN(bytes) ? undefined : bytes / 2 ** 20);
  const measured = (row: string, run: Combined, rssOf: number | undefined, note?: string): Row => ({
    row,
    cpuMicros: run.cpuMicros,
    ratio: run.cpuMicros / best.cpu,
    rps: run.rps,
    p99: run.p99,
    rssMB: mb(rssOf),
    errors: run.errors,
    note,
  });
  const rows: Row[] = [
    ...targets
      .filter((target) => target.name !== KEYED && target.name !== VALIDATING)
      .map((target) => {
        const run = combined.get(target.name)!;
        const peer = PEERS.find((one) => one.name === target.name);
        const withHeaders =
          peer && 'withHeaders' in peer
            ? `the ${Object.keys(projectHeaders).length} headers of the project's answer besides Content-Type, as constants`
            : undefined;
        const note =
          target.server === project
            ? `${(run.cpuMicros / fastifyWithHeaders.cpuMicros).toFixed(2)}× Fastify writing the same headers; ${(run.cpuMicros / koaWithHeaders.cpuMicros).toFixed(2)}× bare Koa writing them (goal ≤ 1.2); p99 ${(run.p99 / koa.p99).toFixed(1)}× bare Koa's (goal ≤ 2); ${plural(statements.anonymousFirst.count, 'SQL statement')}, ${statements.anonymousRepeated.count} within the lookup cache`
            : target.name === best.name
              ? 'best peer (routing + validation from the contract)'
              : peer?.contract
                ? withHeaders && `routing + validation from the contract; ${withHeaders}`
                : `floor: no routing, no validation${withHeaders ? `; ${withHeaders}` : ''}`;
        return measured(target.name, run, rss.get(target.name), note);
      }),
    measured(
      VALIDATING,
      validatingRun,
      rss.get(VALIDATING),
      `${(validatingRun.cpuMicros / anonymous.cpuMicros).toFixed(2)}× anonymous: the cost of answer validation, off by default in production`,
    ),
    measured(
      KEYED,
      keyedRun,
      rss.get(KEYED),
      `${(keyedRun.cpuMicros / anonymous.cpuMicros).toFixed(2)}× anonymous (goal ≤ 1.15); ${plural(statements.keyedRepeated.count, 'SQL statement')} a request (${statements.keyedFirst.count} on the key's first use)`,
    ),
    measured(
      'trash a post (SQLite)',
      trash,
      undefined,
      `${plural(statements.trash.count, 'SQL statement')}; ${sqliteShare(sqliteTime.trash)}`,
    ),
    measured(
      'restore a post (SQLite)',
      restore,
      undefined,
      `${plural(statements.restore.count, 'SQL statement')} (goal ≤ 300 µs CPU); ${sqliteShare(sqliteTime.restore)}`,
    ),
    measured(
      'read a post (SQLite)',
      combine(postReads),
      undefined,
      'the single read a page of the list is compared with',
    ),
    measured(
      'list a page of 20 posts (SQLite)',
      combine(listReads),
      undefined,
      `${(combine(listReads).cpuMicros / combine(postReads).cpuMicros).toFixed(2)}× a single post read (goal ≤ 3); \`GET /sites/{site}/posts/\`, 20 full post objects`,
    ),
    {
      row: 'this project after the publishing rows above (SQLite)',
      rssMB: mb(publishingRss),
      note: 'RSS at the end of the list rounds, after the lookups, trash and restore, reads and lists: a load no peer has',
    },
    ...('skipped' in postgresRuns
      ? [{ row: 'trash and restore a post (PostgreSQL)', note: `not measured: ${postgresRuns.skipped}` }]
      : (['trash', 'restore'] as const).map((kind) => {
          const database = Math.min(...postgresRuns[`${kind}Database`]);
          return measured(
            `${kind} a post (PostgreSQL)`,
            combine(postgresRuns[kind]),
            undefined,
            `PostgreSQL's own processes ${database.toFixed(0)} µs a request beside it (the least of the rounds); statements: \`test/services/publishing/restore.statements.test.ts\``,
          );
        })),
    {
      row: `route + validate the profile lookup, ${routing.small.operations}-operation contract (in-process)`,
      cpuMicros: routing.small.lookup / 1000,
      note: `a path no route takes: ${(routing.small.miss / 1000).toFixed(2)} µs`,
    },
    {
      row: `route + validate the profile lookup, ${routing.large.operations}-operation contract (in-process)`,
      cpuMicros: routing.large.lookup / 1000,
      note: `${(routing.large.lookup / routing.small.lookup).toFixed(2)}× the ${routing.small.operations}-operation contract (goal: flat); a path no route takes: ${(routing.large.miss / 1000).toFixed(2)} µs`,
    },
    {
      row: 'start-up to the first 200, new store (spawn → answer)',
      note: `${median(fresh).toFixed(0)} ms median of ${startups} (least ${Math.min(...fresh).toFixed(0)} ms); the bundled server (\`node ${COMPILED_ENTRY}\`), migrations and demo data included`,
    },
    {
      row: 'start-up to the first 200, existing store',
      note: `${median(existing).toFixed(0)} ms median of ${startups} (least ${Math.min(...existing).toFixed(0)} ms; goal < 1 s)`,
    },
  ];

  const conditions = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverageAtEnd: loadavg()[0],
    duration,
    rounds,
    connections,
    warmup,
    restorePosts,
    restoreWarmupPosts,
    restoreWithTerms,
  };
  console.table(consoleRows(rows));
  const markdown = [
    markdownTable(rows),
    '',
    `${rounds} alternating rounds of ${duration} s per server, ${connections} connections, \`GET ${LOOKUP}\` over loopback; ` +
      `CPU: user + system time of the server process per request, the least of the rounds; requests/s: mean; p99: the worst round; ` +
      `× best peer: CPU per request over that of the best peer that routes and validates from the contract (${best.name}); trash and restore: ${posts.length} copies of a demo post${restoreWithTerms ? ' in its terms' : ''}, each trashed then restored once a round, ${rounds} rounds, after ${restoreWarmupPosts} other posts trashed and restored to warm up, on SQLite and on PostgreSQL (its server on this machine; its own processes' CPU in the notes, the server's in the row); ` +
      `Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end.`,
  ].join('\n');
  console.log(`\n${markdown}`);
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  writeFileSync(join(projectRoot, '.tmp/bench-latest.md'), `${markdown}\n`);
  writeFileSync(
    join(projectRoot, '.tmp/bench-latest.json'),
    `${JSON.stringify({ conditions, bestPeer: best.name, rows, startUpMs: { fresh, existing }, routing, statements, sqliteTime }, null, 2)}\n`,
  );
  console.error('written: .tmp/bench-latest.json, .tmp/bench-latest.md');
  // The three workloads beside Fastify + openapi-glue + rate-limit + a SQLite read, in a process of its own (workloads.ts).
  console.error('workloads: one profile, Zipf and uniform over 10,000, beside the stack a user would pick');
  execFileSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/bench/workloads.ts')], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, BENCH_SKIP_BUILD: '1' },
  });
} finally {
  await Promise.all(children.map((child) => stop(child)));
  rmSync(dir, { recursive: true, force: true });
}
