import { expect } from 'vitest';
import type { ContractChecker } from '../support/contract.js';
import { requestTarget } from '../support/contract.js';
import type { WireAnswer, WireRequest } from '../support/http.js';

/**
 * How hard the property suites push. CI runs a fixed sequence; run longer or
 * another sequence with
 *
 *     FUZZ_RUNS=5000 FUZZ_SEED=$RANDOM npx vitest run test/robustness
 *
 * A failure prints the seed and path that replay it.
 */
export const fuzzSettings = {
  seed: Number(process.env.FUZZ_SEED ?? 20_261_122),
  numRuns: Number(process.env.FUZZ_RUNS ?? 40),
  // A long run must not hit the default 30 s test timeout per property.
  interruptAfterTimeLimit: process.env.FUZZ_RUNS ? undefined : 20_000,
};

/**
 * Per-test timeout for a property: generous when running long. In the suite, room for the time limit
 * above, the request in flight when it ran out (up to `ANSWER_WAIT_MS`) and the shrinking of a failure,
 * on a machine three times slower than a quiet one: at 30 s, a property whose first answers compiled the
 * operation's validators under `test:repeat --burn 4` ran out as a timeout rather than a result.
 */
export const fuzzTimeoutMs = process.env.FUZZ_RUNS ? 24 * 3600_000 : 120_000;

/** What must never reach a client: stack frames, source or dependency paths, error class names. */
const INTERNALS = [/at .*\.[cm]?[jt]s:\d/, /node_modules/, /Error:/, /\/(?:src|home|usr|srv|tmp|work)\/[\w.-]+\//];

/**
 * A stack frame's end (`file.ts:12`), which the first of INTERNALS needs: that pattern scans from every
 * `at ` to the end of its line, and a served contract is one line of 200 kB with thousands of them (tens
 * of milliseconds an answer); an answer without a frame's end cannot match it, and is not scanned.
 */
const FRAME_END = /\.[cm]?[jt]s:\d/;

/** Asserts that an answer shows nothing internal. */
export function expectNothingInternal(answer: WireAnswer, where: string): void {
  const frames = FRAME_END.test(answer.text);
  for (const pattern of INTERNALS)
    if (frames || pattern !== INTERNALS[0]) expect(answer.text, where).not.toMatch(pattern);
}

/**
 * Checks one answer: below 500, nothing internal, and (by the independent
 * contract checker) a status declared for the operation, or the service's
 * generic 404/405, with a valid body and headers.
 */
export function expectContractAnswer(checker: ContractChecker, wire: WireRequest, answer: WireAnswer): void {
  const where = `${wire.method} ${wire.path.slice(0, 300)} -> ${answer.status}: ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  expectNothingInternal(answer, where);
  // A request Node's parser refuses (unknown method, raw non-ASCII in the path) is answered before the app
  // runs, without the app's X-Request-Id: its query string (`http_envelope`, `callback`) is never read.
  const answeredByApp = answer.headers.has('x-request-id');
  const target = requestTarget(answeredByApp ? wire.path : wire.path.split('?')[0]!);
  const checked = checker.checked;
  checker.check(wire.method, target, answer.status, answer.headers, answer.text);
  expect(checker.checked, `the contract checker does not know the service of ${wire.path.slice(0, 40)}`).toBe(
    checked + 1,
  );
}
