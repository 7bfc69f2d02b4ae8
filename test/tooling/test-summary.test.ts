import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/tools.js';

/**
 * `npm test`'s closing line tells the truth: `scripts/run-tests.ts` run on
 * the deliberately broken suites in `broken-suites/` (outside the real suite)
 * counts a failed test, a file that fails to load, a failing `beforeAll`, a
 * file with no test and an unhandled error, and exits non-zero.
 */
function runTests(...args: string[]): Promise<{ code: number | null; lines: string[] }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(
      `${projectRoot}node_modules/.bin/tsx`,
      ['scripts/run-tests.ts', '--config', 'test/tooling/broken-suites/vitest.config.ts', ...args],
      {
        cwd: projectRoot,
        env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', () => {});
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, lines: out.trim().split('\n') }));
  });
}

describe('the closing line of a test run', () => {
  it('counts failed tests, failed files, failing hooks, files with no test and unhandled errors', async () => {
    const { code, lines } = await runTests();
    expect(lines.at(-1)).toBe('2 passed, 5 failed, 1 skipped');
    expect(code).toBe(1);
    const reasons = lines.filter((line) => line.startsWith('FAILED ')).sort();
    expect(reasons).toEqual([
      'FAILED failing-hook.fixture.ts: setup failed',
      'FAILED failing-test.fixture.ts > fails',
      'FAILED load-error.fixture.ts: this test file fails while it loads',
      expect.stringMatching(/^FAILED no-tests\.fixture\.ts: /),
      'FAILED unhandled error: nobody handles this',
    ]);
  });

  it('says "0 failed" and exits 0 only when everything passed', async () => {
    const { code, lines } = await runTests('passing.fixture.ts');
    expect(lines.at(-1)).toBe('1 passed, 0 failed');
    expect(code).toBe(0);
  });

  it('counts a run that executed no test as a failure', async () => {
    const { code, lines } = await runTests('--passWithNoTests', 'no-such-file-anywhere');
    expect(lines.at(-1)).toBe('0 passed, 1 failed');
    expect(code).toBe(1);
  });
});
