/**
 * Runs the vitest suite and ends with one plain line, `N passed, N failed`,
 * which CI reads as the test count. Extra arguments go to vitest.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, run } from './tools.js';

const report = join(projectRoot, '.tmp', 'vitest-report.json');
mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
const code = await run('vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
try {
  const result = JSON.parse(readFileSync(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTotalTests: number;
  };
  const skipped = result.numPendingTests ? `, ${result.numPendingTests} skipped` : '';
  console.log(`${result.numPassedTests} passed, ${result.numFailedTests} failed${skipped}`);
  process.exit(code !== 0 ? code : result.numTotalTests === 0 ? 1 : 0);
} catch {
  console.log('0 passed, 1 failed');
  process.exit(code || 1);
}
