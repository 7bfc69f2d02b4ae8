/**
 * `npm run bench:pieces`: each hot-path piece of the project beside the
 * library it replaces or was chosen over, on the same inputs in the same
 * process, so the decision records can say what the piece buys
 * (docs/decisions/).
 *
 * - Routing the profile lookup's path, and a path no operation takes, with
 *   the profiles contract cut to 2 operations and padded to 50
 *   (contract50.ts): `ContractRouter.match` (find-my-way with the services'
 *   rules) against openapi-backend's `OpenAPIRouter` (`matchOperation`,
 *   then `parseRequest` for the path parameters, as openapi-backend's
 *   `handleRequest` does).
 * - Counting a lookup against its hourly budget, over 1,000 clients:
 *   `InProcessWindows.count` against rate-limiter-flexible's
 *   `RateLimiterMemory` through `LibraryWindows`, awaited as the request path
 *   would await it.
 * - Recording a request's metrics: `RequestMetrics.record` against
 *   prom-client's Counter and Histogram with the same labels and buckets
 *   (the pair test/platform/ops/request-metrics.test.ts compares).
 *
 * Alternating rounds, the least time per operation of the rounds; prints
 * one table of nanoseconds per operation and the library's multiple.
 * BENCH_PIECES_ITERATIONS per round (default 200,000; routing with
 * openapi-backend a fiftieth of it, it is that much slower), BENCH_ROUNDS (3).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAPIRouter } from 'openapi-backend';
import { Counter, Histogram, Registry } from 'prom-client';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { parseYaml } from '../contracts.js';
import { contractWithOperations } from './contract50.js';
import {
  ContractRouter,
  InProcessWindows,
  LibraryWindows,
  loadContract,
  PROFILES_CONTRACT,
  PROFILES_PREFIX,
  RequestMetrics,
} from './project.js';

const iterations = Number(process.env.BENCH_PIECES_ITERATIONS ?? 200_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3) + 1;

/** Nanoseconds per call of `run` (`n` calls), synchronous or awaited. */
async function time(n: number, run: (i: number) => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const result = run(i);
    if (result instanceof Promise) await result;
  }
  return Number(process.hrtime.bigint() - start) / n;
}

interface Pair {
  piece: string;
  ours: (i: number) => unknown;
  library: (i: number) => unknown;
  /** Calls of the library's side per round, when it is too slow for the full count. */
  libraryIterations?: number;
}

const profiles = parseYaml(readFileSync(PROFILES_CONTRACT, 'utf8')) as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'bench-pieces-'));

async function routers(operations: number) {
  const file = join(dir, `contract-${operations}.json`);
  writeFileSync(file, JSON.stringify(contractWithOperations(profiles, operations)));
  const contract = await loadContract(file);
  const ours = new ContractRouter(PROFILES_PREFIX, contract.operations);
  const library = new OpenAPIRouter({
    definition: contract.document as never,
    apiRoot: PROFILES_PREFIX,
    ignoreTrailingSlashes: false,
  });
  return { operations: contract.operations.length, ours, library };
}

/** The lookup's path: routed, its parameters read. */
function routePairs(built: Awaited<ReturnType<typeof routers>>): Pair[] {
  const lookup = { method: 'GET', path: '/v3/profiles/alex', headers: {} };
  const miss = { method: 'GET', path: '/v3/no/such/path', headers: {} };
  return [
    {
      piece: `route the profile lookup, ${built.operations} operations (openapi-backend's router)`,
      ours: () => {
        const match = built.ours.match('GET', lookup.path);
        if (match.kind !== 'operation' || match.rawParams.profileIdentifier !== 'alex')
          throw new Error('the lookup did not route');
      },
      library: () => {
        const operation = built.library.matchOperation(lookup);
        if (!operation || built.library.parseRequest(lookup, operation).params.profileIdentifier !== 'alex')
          throw new Error('the lookup did not route');
      },
      libraryIterations: iterations / 50,
    },
    {
      piece: `route a path no operation takes, ${built.operations} operations (openapi-backend's router)`,
      ours: () => {
        if (built.ours.match('GET', miss.path).kind !== 'not-found')
          throw new Error('routed a path no operation takes');
      },
      library: () => {
        if (built.library.matchOperation(miss)) throw new Error('routed a path no operation takes');
      },
      libraryIterations: iterations / 50,
    },
  ];
}

const CLIENTS = 1000;
const clients = Array.from({ length: CLIENTS }, (_, i) => `203.0.113.${i}`);
// An hour's budget that no client spends in the run: every count is allowed, as on most lookups.
const budget = { keyPrefix: 'bench', points: 1_000_000_000, duration: 3600 };
const windows = new InProcessWindows(budget);
const memory = new RateLimiterMemory(budget);
const memoryWindows = new LibraryWindows(memory, budget.points);

const metrics = new RequestMetrics(new Registry());
const promClient = new Registry();
const requests = new Counter({
  name: 'http_requests_total',
  help: 'Requests.',
  labelNames: ['service', 'operation', 'status'],
  registers: [promClient],
});
const durations = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer.',
  labelNames: ['service', 'operation'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [promClient],
});
const statuses = [200, 200, 200, 404];

try {
  const pairs: Pair[] = [
    ...routePairs(await routers(2)),
    ...routePairs(await routers(50)),
    {
      piece: `count a lookup against its hourly budget, ${CLIENTS} clients (\`RateLimiterMemory\`)`,
      ours: (i) => {
        if (!windows.count(clients[i % CLIENTS]!).allowed) throw new Error('refused');
      },
      library: async (i) => {
        if (!(await memoryWindows.count(clients[i % CLIENTS]!)).allowed) throw new Error('refused');
      },
    },
    {
      piece: "record a request's count and duration (prom-client)",
      ours: (i) => metrics.record('profiles', 'getProfileById', statuses[i & 3]!, 0.0004),
      library: (i) => {
        requests.inc({ service: 'profiles', operation: 'getProfileById', status: String(statuses[i & 3]) });
        durations.observe({ service: 'profiles', operation: 'getProfileById' }, 0.0004);
      },
    },
  ];
  const best = pairs.map(() => ({ ours: Infinity, library: Infinity }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, pair] of pairs.entries()) {
      best[index]!.ours = Math.min(best[index]!.ours, await time(iterations, pair.ours));
      best[index]!.library = Math.min(
        best[index]!.library,
        await time(pair.libraryIterations ?? iterations, pair.library),
      );
    }
  }
  const lines = [
    '| piece | project’s, ns/op | library, ns/op | library ÷ project’s |',
    '|---|---:|---:|---:|',
    ...pairs.map((pair, index) => {
      const { ours, library } = best[index]!;
      return `| ${pair.piece} | ${ours.toFixed(0)} | ${library.toFixed(0)} | ${(library / ours).toFixed(1)}× |`;
    }),
  ];
  console.log(
    `node ${process.version}, ${iterations} iterations, least of ${rounds} rounds (the first one a warm-up)\n`,
  );
  console.log(lines.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
