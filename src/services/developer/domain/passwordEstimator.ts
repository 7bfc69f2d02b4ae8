import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The characters of a password that zxcvbn scores: its work grows faster
 * than the length, and a password whose first 64 characters are easy to
 * guess is not made safe by what follows them.
 */
export const SCORED_LENGTH = 64;

/** zxcvbn's verdict on a password: its score (0 to 4) and the key of its warning, if any. */
export interface PasswordScore {
  score: number;
  warning: string | null;
}

/**
 * The worker's code, as a CommonJS script: it needs no build step, so it runs
 * the same under tsx, vitest and the bundled server. It builds the estimator
 * once (`@zxcvbn-ts/core` with the common-password and diceware dictionaries
 * and keyboard layouts of `@zxcvbn-ts/language-common`), then scores every
 * password posted to it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const core = require(workerData.core);
const common = require(workerData.common);
const zxcvbn = new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, maxLength: workerData.maxLength });
parentPort.on('message', ({ id, password, userInputs }) => {
  try {
    const result = zxcvbn.check(password, userInputs);
    parentPort.postMessage({ id, score: result.score, warning: result.feedback.warning || null });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

const packages = createRequire(import.meta.url);

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
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      core: packages.resolve('@zxcvbn-ts/core'),
      common: packages.resolve('@zxcvbn-ts/language-common'),
      maxLength: SCORED_LENGTH,
    },
  });
  started.unref();
  started.on('message', (answer: { id: number; error?: string } & PasswordScore) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
    if (answer.error !== undefined) waiting?.reject(new Error(`password strength check failed: ${answer.error}`));
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
    thread.postMessage({ id, password, userInputs });
  });
}
