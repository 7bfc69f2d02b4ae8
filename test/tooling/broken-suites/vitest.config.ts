import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Deliberately broken suites, run only by `test/tooling/test-summary.test.ts` through `scripts/run-tests.ts`. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.fixture.ts'],
    pool: 'threads',
  },
});
