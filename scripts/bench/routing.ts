/**
 * The routing rows, a micro-benchmark in a process of its own: the
 * project's router and request validators built from a 2-operation and a
 * 50-operation contract (contract50.ts), timed on the profile lookup's path
 * (routing plus parameter validation, the per-request contract work) and
 * on a path no operation takes (a 404 walks every route). Alternating
 * rounds; the least time per request of the rounds. Prints JSON.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseYaml } from '../contracts.js';
import { contractWithOperations, operationCount } from './contract50.js';
import { ContractRouter, loadContract, PROFILES_CONTRACT, PROFILES_PREFIX } from './project.js';

const iterations = Number(process.env.BENCH_ROUTING_ITERATIONS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3) + 1;

const profiles = parseYaml(readFileSync(PROFILES_CONTRACT, 'utf8')) as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'bench-routing-'));

async function build(operations: number) {
  const document = contractWithOperations(profiles, operations);
  const file = join(dir, `contract-${operations}.json`);
  writeFileSync(file, JSON.stringify(document));
  const contract = await loadContract(file);
  if (contract.operations.length !== operationCount(document)) throw new Error('the contract lost operations');
  const router = new ContractRouter(PROFILES_PREFIX, contract.operations);
  return { operations: contract.operations.length, router };
}

type Built = Awaited<ReturnType<typeof build>>;
const header = { host: '127.0.0.1', accept: '*/*' };

/** Nanoseconds per routed and validated profile lookup. */
function lookup({ router }: Built): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const match = router.match('GET', '/v3/profiles/alex');
    if (match.kind !== 'operation') throw new Error('the profile path did not route');
    const parameters = { path: { ...match.rawParams }, query: {}, header };
    for (const validate of match.operation.validateRequest) if (!validate(parameters)) throw new Error('invalid');
  }
  return Number(process.hrtime.bigint() - start) / iterations;
}

/** Nanoseconds per path that no operation takes. */
function miss({ router }: Built): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    if (router.match('GET', '/v3/no/such/path').kind !== 'not-found')
      throw new Error('routed a path no operation takes');
  }
  return Number(process.hrtime.bigint() - start) / iterations;
}

try {
  const small = await build(2);
  const large = await build(50);
  const best = { small: { lookup: Infinity, miss: Infinity }, large: { lookup: Infinity, miss: Infinity } };
  for (let round = 0; round < rounds; round++) {
    for (const [name, built] of [
      ['small', small],
      ['large', large],
    ] as const) {
      best[name].lookup = Math.min(best[name].lookup, lookup(built));
      best[name].miss = Math.min(best[name].miss, miss(built));
    }
  }
  console.log(
    JSON.stringify({
      iterations,
      rounds,
      small: { operations: small.operations, ...best.small },
      large: { operations: large.operations, ...best.large },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
