/**
 * Regenerates the SDKs into a temporary folder and fails when they differ
 * from the committed `generated/` (someone edited it by hand, or forgot to run
 * `npm run generate` after changing a contract).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot, quietToolEnv, run } from './tools.js';

const listFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });

const fresh = mkdtempSync(join(tmpdir(), 'generated-'));
try {
  const code = await run('tsx', ['scripts/generate.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...quietToolEnv, GENERATE_OUTPUT_ROOT: fresh },
  });
  if (code !== 0) process.exit(code);
  const committed = join(projectRoot, 'generated');
  const a = new Set(listFiles(committed).map((f) => relative(committed, f)));
  const b = new Set(listFiles(fresh).map((f) => relative(fresh, f)));
  const differences = [...new Set([...a, ...b])].filter(
    (file) =>
      !a.has(file) || !b.has(file) || !readFileSync(join(committed, file)).equals(readFileSync(join(fresh, file))),
  );
  if (differences.length) {
    console.error(
      `generated/ is stale or edited by hand; run \`npm run generate\`. Differs: ${differences.join(', ')}`,
    );
    process.exit(1);
  }
  console.log(`generated/ matches the contracts (${a.size} files)`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
