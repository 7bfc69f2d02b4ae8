/**
 * `npm run test:repeat`: proof that the suite passes every time, on this
 * machine as it is and with one core taken. Runs `npm test` `--runs` times
 * in a row (default 5), then `--loaded` times (default 2) while another
 * process keeps one core busy (`--burn N` busy processes instead: a CI
 * machine shared with other runs can be three times slower than a quiet
 * one, which `--burn 4` on two cores comes near); prints each run's closing
 * line and duration, then every test that failed in any run and in which
 * runs. Exits non-zero when any run failed.
 *
 *   npm run test:repeat -- --runs 5 --loaded 2
 *   npm run test:repeat -- --runs 0 --loaded 1 --burn 4
 *   npm run test:repeat -- --runs 1 --loaded 1 test/faults   (arguments after the flags go to npm test)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from './tools.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const raw = args[at + 1];
  args.splice(at, 2);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number, got "${raw}"`);
  return value;
};
const runs = option('--runs', 5);
const loaded = option('--loaded', 2);
const burn = option('--burn', 1);
const CLOSING = /^(\d+) passed, (\d+) failed/;

interface Run {
  label: string;
  closing: string;
  seconds: number;
  failed: string[];
  ok: boolean;
}

/** One `npm test`, its output passed through, its closing line and FAILED lines kept. */
function npmTest(label: string): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['test', '--', ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const lines = out.trim().split('\n');
      const closing = [...lines].reverse().find((line) => CLOSING.test(line)) ?? '(no closing line)';
      const failed = lines.filter((line) => line.startsWith('FAILED ')).map((line) => line.slice('FAILED '.length));
      const match = CLOSING.exec(closing);
      resolve({
        label,
        closing,
        seconds: (performance.now() - started) / 1000,
        failed,
        ok: code === 0 && !!match && match[2] === '0',
      });
    });
  });
}

/** A process that keeps one core busy until stopped. */
function burnCore(): ChildProcess {
  // Busy, and gone once the process that started it is (killed or not, a burner must not outlive the run).
  const busy =
    'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e8; i++); try { process.kill(parent, 0); } catch { process.exit(0); } }';
  return spawn(process.execPath, ['-e', busy], { stdio: 'ignore' });
}

const results: Run[] = [];
for (let i = 1; i <= runs; i++) results.push(await npmTest(`run ${i}/${runs}`));
for (let i = 1; i <= loaded; i++) {
  const burners = Array.from({ length: burn }, burnCore);
  try {
    results.push(await npmTest(`loaded run ${i}/${loaded} (${burn} busy ${burn === 1 ? 'process' : 'processes'})`));
  } finally {
    for (const burner of burners) burner.kill('SIGKILL');
  }
}

console.log('\n== test:repeat');
for (const run of results) console.log(`${run.label}: ${run.closing} (${run.seconds.toFixed(0)} s)`);
const failures = new Map<string, string[]>();
for (const run of results)
  for (const test of run.failed) failures.set(test, [...(failures.get(test) ?? []), run.label]);
if (failures.size) {
  console.log('failed in some run:');
  for (const [test, where] of failures) console.log(`  ${test}  (${where.join('; ')})`);
}
const bad = results.filter((run) => !run.ok).length;
console.log(`${results.length - bad} of ${results.length} runs passed`);
process.exit(bad ? 1 : 0);
