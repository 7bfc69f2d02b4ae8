import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** What one run counted; `scripts/run-tests.ts` prints it as the closing line. */
export interface TestTally {
  passed: number;
  /** Failed tests. */
  failed: number;
  skipped: number;
  /** Each failed test, as `[project] file > describe > test`. */
  failedTests: string[];
  /** Why each failure that is not a failed test counted (a suite that failed to load, a failing hook, a suite that ran no test, an unhandled error). */
  otherFailures: string[];
}

/**
 * A vitest reporter that counts every way a run can fail, not only failed
 * tests: a test file whose module or hooks failed with no failed test in it,
 * a test file that ran no test, and every unhandled error. It writes the
 * tally as JSON to the file named by `TEST_TALLY_FILE`.
 */
export default class TestTallyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const tally: TestTally = { passed: 0, failed: 0, skipped: 0, failedTests: [], otherFailures: [] };
    for (const module of testModules) {
      let passed = 0;
      let failed = 0;
      const name = `${module.project.name ? `[${module.project.name}] ` : ''}${module.relativeModuleId}`;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') {
          failed++;
          tally.failedTests.push(`${name} > ${test.fullName}`);
        } else tally.skipped++;
      }
      tally.passed += passed;
      tally.failed += failed;
      const moduleErrors = module.errors();
      if (failed === 0 && (moduleErrors.length > 0 || module.state() === 'failed')) {
        tally.otherFailures.push(`${name}: ${moduleErrors[0]?.message ?? 'the test file failed'}`);
      } else if (passed + failed === 0) {
        tally.otherFailures.push(`${name}: ran no test`);
      }
    }
    for (const error of unhandledErrors) tally.otherFailures.push(`unhandled error: ${error.message ?? String(error)}`);
    const file = process.env.TEST_TALLY_FILE;
    if (file) writeFileSync(file, JSON.stringify(tally));
  }
}
