import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (vitest's per-file durations
 * of a whole run, docs/performance.md "The test suite"). A file not listed
 * keeps vitest's own order after them.
 */
export const LONGEST_FILES = [
  'test/robustness/fuzz.operations.test.ts',
  'test/platform/http/docs.e2e.test.ts',
  'test/robustness/cost.operations.test.ts',
  'test/robustness/connection.test.ts',
  'test/accounts/oauth/protections.test.ts',
  'test/robustness/bad-input.others.test.ts',
  'test/tooling/contract-versions.test.ts',
  'test/robustness/bad-input.query-1.test.ts',
  'test/services/developer/login-rate-limit.test.ts',
  'test/platform/ops/connections.process.test.ts',
  'test/services/publishing/fields.equivalence.test.ts',
  'test/contract/mock-vs-server.test.ts',
  'test/robustness/bad-input.query-2.test.ts',
  'test/contract/mock.test.ts',
  'test/services/developer/session.test.ts',
  'test/services/developer/dashboard.e2e.test.ts',
  'test/services/developer/first-app.e2e.test.ts',
  'test/services/developer/email-change.test.ts',
  'test/accounts/oauth/account-ends.test.ts',
  'test/tooling/bench.test.ts',
  'test/tooling/npm-start-signals.process.test.ts',
];

/** The projects in the order they run: the store-independent suites (SQLite's) first, whose longest files are the suite's. */
const PROJECT_ORDER = ['sqlite', 'postgres'];

/** Where `value` stands in `list`; after every listed one when it is not there. */
const placeIn = (list: readonly string[], value: string) => {
  const index = list.indexOf(value);
  return index < 0 ? list.length : index;
};

/**
 * Longest first, project by project. Vitest's own order runs files it has
 * no durations for (a fresh clone, as CI runs) largest first, and the
 * projects by name; the catalogue's files are a few lines each, so on a
 * fresh clone they started last and ran on alone for a minute and a half
 * after the other workers had finished. The projects stay one after the
 * other: a worker is reused only for a file of the same project (a worker
 * started again imports the source and compiles the contracts again).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const missing = LONGEST_FILES.filter((file) => !existsSync(join(this.ctx.config.root, file)));
    if (missing.length)
      throw new Error(`test/support/sequencer.ts names files that do not exist: ${missing.join(', ')}`);
    const sorted = await super.sort(files);
    const path = (file: TestSpecification) => relative(this.ctx.config.root, file.moduleId).split('\\').join('/');
    return sorted.sort(
      (a, b) =>
        placeIn(PROJECT_ORDER, a.project.name) - placeIn(PROJECT_ORDER, b.project.name) ||
        placeIn(LONGEST_FILES, path(a)) - placeIn(LONGEST_FILES, path(b)),
    );
  }
}
