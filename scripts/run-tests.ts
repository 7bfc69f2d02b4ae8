/**
 * Runs the vitest suite and ends with one plain line, `N passed, N failed`,
 * which CI reads as the test count. "Failed" counts every way the run can
 * fail (failed tests, test files that failed to load or whose hooks failed,
 * test files that ran no test, unhandled errors; see
 * `scripts/test-tally-reporter.ts`), and any of them, or a vitest that exits
 * non-zero or never reports, makes the exit status non-zero. Extra arguments
 * go to vitest.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestTally } from './test-tally-reporter.js';
import { projectRoot, quietToolEnv, run } from './tools.js';

const tallyFile = join(projectRoot, '.tmp', `test-tally-${process.pid}.json`);
mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
rmSync(tallyFile, { force: true });
const code = await run(
  'vitest',
  [
    'run',
    '--reporter=default',
    `--reporter=${join(projectRoot, 'scripts/test-tally-reporter.ts')}`,
    ...process.argv.slice(2),
  ],
  {
    env: { ...quietToolEnv, TEST_TALLY_FILE: tallyFile },
  },
);

let tally: TestTally;
try {
  tally = JSON.parse(readFileSync(tallyFile, 'utf8')) as TestTally;
  rmSync(tallyFile, { force: true });
} catch {
  tally = {
    passed: 0,
    failed: 0,
    skipped: 0,
    failedTests: [],
    otherFailures: ['vitest ended without reporting its results'],
  };
}
if (tally.passed + tally.failed === 0) tally.otherFailures.push('the run executed no test');
if (code !== 0 && tally.failed + tally.otherFailures.length === 0)
  tally.otherFailures.push(`vitest exited with status ${code}`);
const failed = tally.failed + tally.otherFailures.length;
for (const test of tally.failedTests) console.log(`FAILED ${test}`);
for (const reason of tally.otherFailures) console.log(`FAILED ${reason}`);
const skipped = tally.skipped ? `, ${tally.skipped} skipped` : '';
console.log(`${tally.passed} passed, ${failed} failed${skipped}`);
process.exit(failed > 0 ? 1 : 0);
