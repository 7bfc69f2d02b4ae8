import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EstimatorData, PasswordScore, ScoreAnswer, ScoreRequest } from './passwordEstimatorWorker.js';

export type { PasswordScore };

/**
 * The characters of a password that zxcvbn scores: its work grows faster
 * than the length, and a password whose first 64 characters are easy to
 * guess is not made safe by what follows them.
 */
export const SCORED_LENGTH = 64;

/**
 * Set by the bundlers (`npm run build:server`, and the test run's and benchmarks' bundles) in the bundles
 * they write: where the worker's own bundle is, from theirs.
 */
declare const BUNDLED_PASSWORD_WORKER: string | undefined;

const packages = createRequire(import.meta.url);

/**
 * Where tsx's API for ES modules is (`tsx/esm/api` as `import` resolves it: the script a worker evaluates
 * is CommonJS, whose resolution would give the API's CommonJS build).
 */
function tsxModuleApi(): string {
  const manifest = packages.resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/**
 * Starts the worker module (`passwordEstimatorWorker.ts`): its bundle beside the server's, or, run from the
 * TypeScript source (tsx, vitest), its source through tsx's loader, which a worker thread does not inherit.
 */
function startWorker(workerData: EstimatorData): Worker {
  if (typeof BUNDLED_PASSWORD_WORKER === 'string')
    return new Worker(new URL(BUNDLED_PASSWORD_WORKER, import.meta.url), { workerData });
  const source = new URL('./passwordEstimatorWorker.ts', import.meta.url).href;
  const run = `import(${JSON.stringify(tsxModuleApi())}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(run, { eval: true, workerData });
}

interface Pending {
  resolve(score: PasswordScore): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

/**
 * One worker thread, started when a password is first scored (loading the
 * dictionaries is slow, and start-up need not wait for it). It holds the
 * process open only while a score is awaited; one that fails is replaced at
 * the next score.
 */
function estimator(): Worker {
  if (worker) return worker;
  const started = startWorker({ maxLength: SCORED_LENGTH });
  started.unref();
  started.on('message', (answer: ScoreAnswer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
    if ('error' in answer) waiting?.reject(new Error(`password strength check failed: ${answer.error}`));
    else waiting?.resolve({ score: answer.score, warning: answer.warning });
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`password strength worker stopped (exit code ${code})`)));
  worker = started;
  return started;
}

/**
 * zxcvbn's score of a password, the user's own words (email address, name)
 * counting as words an attacker would try. Scored in a worker thread, so the
 * event loop never waits for the estimator (the longest passwords take it a
 * long time).
 */
export function scorePassword(password: string, userInputs: string[]): Promise<PasswordScore> {
  const thread = estimator();
  const id = nextId++;
  return new Promise<PasswordScore>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    thread.ref();
    thread.postMessage({ id, password, userInputs } satisfies ScoreRequest);
  });
}
